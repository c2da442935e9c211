// Create or refresh observations and link each to the facts it was derived from.
// params: $agent_id string, $rows list<{id, text, kind, embedding, fact_ids list<string>}>
// returns: id string
UNWIND $rows AS row
MERGE (o:Observation {id: row.id})
  ON CREATE SET o.agent_id = $agent_id, o.created_at = datetime(), o.source = 'consolidation'
SET o.text = row.text, o.kind = row.kind, o.embedding = row.embedding, o.updated_at = datetime()
WITH o, row
CALL (o, row) {
  UNWIND row.fact_ids AS fid
  MATCH (f:Fact {id: fid, agent_id: $agent_id})
  MERGE (o)-[:DERIVED_FROM]->(f)
  RETURN count(f) AS linked
}
RETURN o.id AS id
