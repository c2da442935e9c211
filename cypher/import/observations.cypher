// Write a batch of imported observations with their DERIVED_FROM links to facts.
// params: $agent_id string, $rows list<{id string, props map, derived_from list<string>}>
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
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of
// it; a record without a vector leaves a re-imported observation's vector as it is.
UNWIND $rows AS row
WITH s, row, row.props AS props
MERGE (o:Observation {id: row.id})
  ON CREATE SET s.observations = s.observations + 1
SET o += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    o.agent_id = $agent_id
WITH o, row, props
CALL (o, props) {
  WITH o, props WHERE props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(o, 'embedding', props.embedding)
}
CALL (o, row) {
  UNWIND row.derived_from AS fid
  MATCH (f:Fact {id: fid, agent_id: $agent_id})
  MERGE (o)-[:DERIVED_FROM]->(f)
  RETURN count(*) AS derived
}
RETURN count(o) AS written
