// Test helper: an agent's nodes of one label with their text (or name) and stored vector, in text order.
// params: $agent_id string, $label string
// returns: text string, embedding list<float>|null
MATCH (n {agent_id: $agent_id})
WHERE $label IN labels(n)
RETURN coalesce(n.text, n.name) AS text, n.embedding AS embedding
ORDER BY text
