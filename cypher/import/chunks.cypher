// Write a batch of imported document chunks and link each to its document.
// params: $agent_id string, $rows list<{id string, document_id string, props map}>
// returns: written int
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of
// it; a record without a vector leaves a re-imported chunk's vector as it is.
UNWIND $rows AS row
WITH row, row.props AS props
MATCH (d:Document {id: row.document_id, agent_id: $agent_id})
MERGE (n:Chunk {id: row.id})
SET n += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    n.agent_id = $agent_id
WITH d, n, props
CALL (n, props) {
  WITH n, props WHERE props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', props.embedding)
}
MERGE (d)-[:HAS_CHUNK]->(n)
RETURN count(n) AS written
