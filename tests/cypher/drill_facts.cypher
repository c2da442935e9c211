// Drills: one agent's active facts with the events they come from (duplicates show as n > 1).
// params: $agent_id string
// returns: text string, n int (active facts with that text), events int (FROM_EVENT links)
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
OPTIONAL MATCH (f)-[r:FROM_EVENT]->(:Event)
WITH f, count(r) AS links
RETURN f.text AS text, count(f) AS n, sum(links) AS events
