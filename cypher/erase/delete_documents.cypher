// Delete a batch of documents with their chunks.
// params: $agent_id string, $ids list<string> (one batch)
// returns: deleted int (documents)
UNWIND $ids AS did
MATCH (d:Document {id: did}) WHERE d.agent_id = $agent_id
OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
DETACH DELETE c
WITH DISTINCT d
DETACH DELETE d
RETURN count(*) AS deleted
