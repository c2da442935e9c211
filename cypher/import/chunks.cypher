// Write a batch of imported document chunks and link each to its document.
// params: $agent_id string, $rows list<{id string, document_id string, props map}>
// returns: written int
UNWIND $rows AS row
MATCH (d:Document {id: row.document_id, agent_id: $agent_id})
MERGE (n:Chunk {id: row.id})
SET n += row.props, n.agent_id = $agent_id
MERGE (d)-[:HAS_CHUNK]->(n)
RETURN count(n) AS written
