// Bench helper: the physical floor of the semantic signal — a bare global vector index call, no filtering or projection.
// params: $vector list<float>, $k int
// returns: hits int, best float
CALL db.index.vector.queryNodes('fact_embedding', $k, $vector) YIELD node, score
RETURN count(node) AS hits, max(score) AS best
