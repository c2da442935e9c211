// Report progress of a leased job and renew its lease (long jobs call this as they go).
// params: $id string, $owner string, $token int or null (the lease's fencing token), $progress float or null (null: renew only)
// returns: id string — no row when the lease was lost
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner
  AND ($token IS NULL OR j.lease_token = $token)
SET j.progress = coalesce($progress, j.progress), j.leased_at = datetime()
RETURN j.id AS id
