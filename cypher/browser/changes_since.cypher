// What changed since a time: facts added, ended or invalidated after $since, newest first.
// params: $agent_id string, $since datetime (e.g. datetime('2025-01-01T00:00:00Z'))
// returns: at datetime, change string, fact text, subject key
MATCH (f:Fact {agent_id: $agent_id})
UNWIND [['added', f.created_at], ['ended', f.valid_to], ['invalidated', f.invalidated_at]] AS c
WITH f, c[0] AS change, c[1] AS at
WHERE at IS NOT NULL AND at >= $since
RETURN at, change, f.text AS fact, f.subject_key AS subject
ORDER BY at DESC
LIMIT 200
