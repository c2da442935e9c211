// Create fact versions; MERGE on id makes a retried transaction idempotent (callers pre-check supplied ids).
// params: $agent_id string, $rows list<{id string, props map}>
// returns: written int
// Every node it creates adds one to the agent's AgentStats counter (read/agent_counts), itself
// created on first use from the agent's current counts.
MERGE (s:AgentStats {agent_id: $agent_id})
  ON CREATE SET s.counting = true
WITH s
CALL (s) {
  WITH s
  WHERE s.counting
  SET s.facts = COUNT { (x:Fact {agent_id: $agent_id}) },
      s.events = COUNT { (x:Event {agent_id: $agent_id}) },
      s.observations = COUNT { (x:Observation {agent_id: $agent_id}) }
  REMOVE s.counting
}
UNWIND $rows AS row
MERGE (f:Fact {id: row.id})
ON CREATE SET f += row.props, f.agent_id = $agent_id, s.facts = s.facts + 1
RETURN count(f) AS written
