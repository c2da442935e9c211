// Test helper (export/import): every fact of an agent with its text and vector, in text order.
// params: $agent string
// returns: text string, v list<float>
MATCH (f:Fact {agent_id: $agent})
RETURN f.text AS text, f.embedding AS v
ORDER BY f.text
