// Store raw messages (the immutable audit trail); MERGE on id makes retries idempotent.
// params: $agent_id string, $rows list<{id string, props map, pending bool (optional)}>
// returns: id string
// A row with pending = true is a message still to be extracted: it carries the
// :PendingExtraction label until its extraction commits (the orphan sweep looks for it).
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
MERGE (ev:Event {id: row.id})
ON CREATE SET ev += row.props, ev.agent_id = $agent_id, s.events = s.events + 1
FOREACH (_ IN CASE WHEN coalesce(row.pending, false) AND ev.extracted_at IS NULL
                   THEN [1] ELSE [] END | SET ev:PendingExtraction)
RETURN ev.id AS id
