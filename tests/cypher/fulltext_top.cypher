// Test helper: full-text hits among one agent's facts.
// params: $agent_id string, $q string (Lucene syntax)
// returns: text string, score float
CALL db.index.fulltext.queryNodes('fact_text', $q) YIELD node, score
WHERE node.agent_id = $agent_id
RETURN node.text AS text, score
ORDER BY score DESC
