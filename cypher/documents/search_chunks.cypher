// Chunks of an agent's documents nearest to a vector (exact scan over the agent's chunks).
// params: $agent_id string, $vector list<float>, $limit int
// returns: id, document_id, ord, text, score
MATCH (c:Chunk {agent_id: $agent_id})
WHERE c.embedding IS NOT NULL
WITH c, vector.similarity.cosine(c.embedding, $vector) AS score
RETURN c.id AS id, c.document_id AS document_id, c.ord AS ord, c.text AS text, score
ORDER BY score DESC, id
LIMIT $limit
