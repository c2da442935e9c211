// Write a batch of imported RELATES_TO versions (MERGE on the mapped id between the two entities).
// params: $agent_id string, $rows list<{id string, source string, target string, props map}>
// returns: written int
UNWIND $rows AS row
MATCH (a:Entity {agent_id: $agent_id, key: row.source})
MATCH (b:Entity {agent_id: $agent_id, key: row.target})
MERGE (a)-[r:RELATES_TO {id: row.id}]->(b)
SET r += row.props, r.agent_id = $agent_id
RETURN count(r) AS written
