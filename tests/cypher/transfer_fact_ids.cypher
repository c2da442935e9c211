// Test helper (export/import): ids of an agent's facts whose text contains a string.
// params: $agent string, $text string
// returns: id string
MATCH (f:Fact {agent_id: $agent})
WHERE f.text CONTAINS $text
RETURN f.id AS id
