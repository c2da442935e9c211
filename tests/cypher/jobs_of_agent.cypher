// Test helper: the jobs of one agent by kind and status.
// params: $agent_id string
// returns: kind string, status string, n int
MATCH (j:Job {agent_id: $agent_id})
RETURN j.kind AS kind, j.status AS status, count(*) AS n
ORDER BY kind, status
