// Create or refresh observations and link each to the facts it was derived from.
// params: $agent_id string, $rows list<{id, text, kind, embedding, fact_ids list<string>}>
// returns: id string
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
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of it.
UNWIND $rows AS row
MERGE (o:Observation {id: row.id})
  ON CREATE SET o.agent_id = $agent_id, o.created_at = datetime(), o.source = 'consolidation',
                s.observations = s.observations + 1
SET o.text = row.text, o.kind = row.kind, o.updated_at = datetime()
WITH o, row
CALL (o, row) {
  WITH o, row WHERE row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(o, 'embedding', row.embedding)
}
CALL (o, row) {
  UNWIND row.fact_ids AS fid
  MATCH (f:Fact {id: fid, agent_id: $agent_id})
  MERGE (o)-[:DERIVED_FROM]->(f)
  RETURN count(f) AS linked
}
RETURN o.id AS id
