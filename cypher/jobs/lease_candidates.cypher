// Due pending jobs, oldest first (the lease then locks and re-checks them one by one).
// params: $kinds list<string> or null, $agent_id string or null, $limit int
// returns: id string
MATCH (j:Job)
WHERE j.status = 'pending' AND j.run_after <= datetime()
  AND ($kinds IS NULL OR j.kind IN $kinds)
  AND ($agent_id IS NULL OR j.agent_id = $agent_id)
RETURN j.id AS id
ORDER BY j.run_after, j.id
LIMIT $limit
