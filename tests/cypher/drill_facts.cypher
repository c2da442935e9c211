// Drills: one agent's active facts by text (duplicates show as n > 1) and how many of them have
// no FROM_EVENT link (a half-written message).
// params: $agent_id string
// returns: text string, n int, unlinked int
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
WITH f, EXISTS { (f)-[:FROM_EVENT]->(:Event) } AS linked
RETURN f.text AS text, count(f) AS n, sum(CASE WHEN linked THEN 0 ELSE 1 END) AS unlinked
