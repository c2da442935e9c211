// One page of an agent's document chunks for export, in id order, with their document's id.
// params: $agent_id string, $after string, $limit int
// returns: id string, document_id string, props map
MATCH (d:Document {agent_id: $agent_id})-[:HAS_CHUNK]->(n:Chunk)
WHERE n.id > $after
RETURN n.id AS id, d.id AS document_id, properties(n) AS props
ORDER BY id
LIMIT $limit
