// Reconciliation candidates: per new fact, top-K active facts of the same subject (true cosine; same content_hash = 1.0).
// params: $agent_id string, $rows list<{index int, subject_key string, content_hash string, embedding list<float>}>, $k int
// returns: index int, id string, text string, confidence float, similarity float
UNWIND $rows AS row
CALL (row) {
  MATCH (f:Fact {agent_id: $agent_id, subject_key: row.subject_key})
  USING INDEX SEEK f:Fact(agent_id, subject_key)
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  WITH f, CASE WHEN f.content_hash = row.content_hash THEN 1.0
               WHEN f.embedding IS NULL THEN 0.0
               ELSE 2 * vector.similarity.cosine(f.embedding, row.embedding) - 1 END AS similarity
  RETURN f.id AS id, f.text AS text, f.confidence AS confidence, similarity
  ORDER BY similarity DESC
  LIMIT $k
}
RETURN row.index AS index, id, text, confidence, similarity
