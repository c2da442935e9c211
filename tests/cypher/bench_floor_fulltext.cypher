// Bench helper: the physical floor of the keyword signal — a bare global full-text call, no filtering or projection.
// params: $q string (Lucene query), $k int
// returns: hits int, best float
CALL db.index.fulltext.queryNodes('fact_text', $q, {limit: $k}) YIELD node, score
RETURN count(node) AS hits, max(score) AS best
