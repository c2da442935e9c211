// Jobs, newest first, filtered by agent, status and kind (each filter optional).
// params: $agent_id string or null, $status string or null, $kind string or null, $limit int
// returns: job map
MATCH (j:Job)
WHERE ($agent_id IS NULL OR j.agent_id = $agent_id)
  AND ($status IS NULL OR j.status = $status)
  AND ($kind IS NULL OR j.kind = $kind)
RETURN properties(j) AS job
ORDER BY j.created_at DESC, j.id
LIMIT $limit
