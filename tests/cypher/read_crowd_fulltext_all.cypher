// Test helper (multi-tenant read tests): the exhaustive full-text ranking of one agent's facts (huge limit, then filter) = brute-force reference.
// params: $agent_id string, $q string (Lucene syntax), $limit int|null (global hits; null = all)
// returns: id string, score float
CALL db.index.fulltext.queryNodes('fact_text', $q, {limit: coalesce($limit, 1000000)}) YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.id AS id, score
ORDER BY score DESC, id
