// Drills: one agent's jobs (status, attempts, last error) of the given kinds.
// params: $agent_id string, $kinds list<string>
// returns: id, kind, status string, attempts int, last_error string|null, result string|null
MATCH (j:Job {agent_id: $agent_id})
WHERE j.kind IN $kinds
RETURN j.id AS id, j.kind AS kind, j.status AS status, j.attempts AS attempts,
       j.last_error AS last_error, j.result AS result
