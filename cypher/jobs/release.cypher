// Hand a leased job back untouched (graceful shutdown): pending now, the attempt not counted.
// params: $id string, $owner string
// returns: id string
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner
SET j.status = 'pending', j.lease_owner = null, j.leased_at = null, j.run_after = datetime(),
    j.attempts = CASE WHEN j.attempts > 0 THEN j.attempts - 1 ELSE 0 END
RETURN j.id AS id
