// Number of jobs per status, optionally for one agent and/or kind.
// params: $agent_id string or null, $kind string or null
// returns: status string, n int
MATCH (j:Job)
WHERE ($agent_id IS NULL OR j.agent_id = $agent_id) AND ($kind IS NULL OR j.kind = $kind)
RETURN j.status AS status, count(*) AS n
