// Lock leased jobs whose lease is older than the timeout (the reaper re-checks them after).
// params: $lease_ms int, $agent_id string|null (only this agent's jobs), $limit int
// returns: id string
MATCH (j:Job)
WHERE j.status = 'leased' AND j.leased_at < datetime() - duration({milliseconds: $lease_ms})
  AND ($agent_id IS NULL OR j.agent_id = $agent_id)
WITH j ORDER BY j.leased_at LIMIT $limit
SET j._lock = true
REMOVE j._lock
RETURN j.id AS id
