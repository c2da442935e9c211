// Write a batch of imported observations with their DERIVED_FROM links to facts.
// params: $agent_id string, $rows list<{id string, props map, derived_from list<string>}>
// returns: written int
UNWIND $rows AS row
MERGE (o:Observation {id: row.id})
SET o += row.props, o.agent_id = $agent_id
WITH o, row
CALL (o, row) {
  UNWIND row.derived_from AS fid
  MATCH (f:Fact {id: fid, agent_id: $agent_id})
  MERGE (o)-[:DERIVED_FROM]->(f)
  RETURN count(*) AS derived
}
RETURN count(o) AS written
