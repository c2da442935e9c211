// Reconciliation candidates of large subjects through the fact vector index: per row, the global top-row.k, the subject's active facts kept (top $k), + the active fact with the same content_hash (similarity 1.0). The caller grows row.k while a row has fewer than $k hits and the global floor is still above $min_score.
// params: $agent_id string, $rows list<{index int, subject_key string, content_hash string, embedding list<float>, k int}>, $k int, $min_score float (index scale (1+cos)/2)
// returns: index int, fetched int (global hits), floor float (lowest global score), mine int (the subject's facts among the hits, any score or state), near list<{id string, text string, confidence float, similarity float (raw cosine)}>, same list<{id, text, confidence, similarity 1.0}>
UNWIND $rows AS row
CALL (row) {
  CALL db.index.vector.queryNodes('fact_embedding', row.k, row.embedding) YIELD node, score
  WITH count(node) AS fetched, min(score) AS floor,
       sum(CASE WHEN node.agent_id = $agent_id AND node.subject_key = row.subject_key
                THEN 1 ELSE 0 END) AS mine,
       collect(CASE WHEN node.agent_id = $agent_id AND node.subject_key = row.subject_key
                    AND score >= $min_score AND node.valid_to IS NULL
                    AND node.invalidated_at IS NULL THEN {f: node, score: score} END) AS found
  RETURN fetched, floor, mine, [h IN found[..$k] | {id: h.f.id, text: h.f.text,
                                             confidence: h.f.confidence,
                                             similarity: 2 * h.score - 1}] AS near
}
CALL (row) {
  OPTIONAL MATCH (f:Fact {agent_id: $agent_id, content_hash: row.content_hash})
  WHERE f.subject_key = row.subject_key AND f.valid_to IS NULL AND f.invalidated_at IS NULL
  RETURN [x IN collect(f) | {id: x.id, text: x.text, confidence: x.confidence,
                             similarity: 1.0}] AS same
}
RETURN row.index AS index, fetched, floor, mine, near, same
