// Pre-retrieval: top-K active facts per entity (by cosine to the message) for the extraction context.
// params: $agent_id string, $keys list<string>, $embedding list<float>, $k int
// returns: key string, text string, confidence float
UNWIND $keys AS key
CALL (key) {
  MATCH (f:Fact {agent_id: $agent_id, subject_key: key})
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL AND f.embedding IS NOT NULL
  RETURN f.text AS text, f.confidence AS confidence
  ORDER BY vector.similarity.cosine(f.embedding, $embedding) DESC
  LIMIT $k
}
RETURN key, text, confidence
