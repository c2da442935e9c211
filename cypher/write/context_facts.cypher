// Pre-retrieval: top-K active facts per entity (by cosine to the message) for the informed extraction; they are also its reconciliation candidates.
// params: $agent_id string, $keys list<string>, $embedding list<float>, $k int
// returns: key string, id string, text string, confidence float, similarity float
UNWIND $keys AS key
CALL (key) {
  MATCH (f:Fact {agent_id: $agent_id, subject_key: key})
  USING INDEX SEEK f:Fact(agent_id, subject_key)
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL AND f.embedding IS NOT NULL
  WITH f, 2 * vector.similarity.cosine(f.embedding, $embedding) - 1 AS similarity
  RETURN f.id AS id, f.text AS text, f.confidence AS confidence, similarity
  ORDER BY similarity DESC
  LIMIT $k
}
RETURN key, id, text, confidence, similarity
