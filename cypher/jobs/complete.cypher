// Mark a leased job done (only by the worker that holds the lease).
// params: $id string, $owner string, $token int or null (the lease's fencing token), $result string (JSON)
// returns: id string — no row when the lease was lost
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner
  AND ($token IS NULL OR j.lease_token = $token)
SET j.status = 'done', j.finished_at = datetime(), j.progress = 1.0, j.result = $result,
    j.lease_owner = null
RETURN j.id AS id
