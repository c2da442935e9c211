// Store a batch of embedded chunks and link them to their document (idempotent on chunk id).
// params: $agent_id string, $document_id string, $rows list<{id, ord int, text, start int, end int, embedding}>
// returns: written int
MATCH (d:Document {id: $document_id, agent_id: $agent_id})
UNWIND $rows AS row
MERGE (c:Chunk {id: row.id})
  ON CREATE SET c.agent_id = $agent_id, c.document_id = $document_id, c.created_at = datetime()
SET c.ord = row.ord, c.text = row.text, c.start = row.start, c.end = row.end
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of it.
WITH d, c, row
CALL (c, row) {
  WITH c, row WHERE row.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(c, 'embedding', row.embedding)
}
MERGE (d)-[:HAS_CHUNK]->(c)
RETURN count(c) AS written
