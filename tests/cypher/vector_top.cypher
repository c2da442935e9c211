// Test helper: nearest facts of one agent through the vector index.
// params: $agent_id string, $vector list<float>, $k int
// returns: text string, score float
CALL db.index.vector.queryNodes('fact_embedding', $k, $vector) YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.text AS text, score
ORDER BY score DESC
