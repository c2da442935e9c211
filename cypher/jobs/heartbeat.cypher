// Report progress of a leased job and renew its lease (long jobs call this as they go).
// params: $id string, $owner string, $progress float
// returns: id string — no row when the lease was lost
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner
SET j.progress = $progress, j.leased_at = datetime()
RETURN j.id AS id
