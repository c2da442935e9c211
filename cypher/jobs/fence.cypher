// Fencing: is this lease (owner + lease token) still the job's current one? Run after
// params: $id string, $owner string, $token int
// returns: id string — no row when the lease was lost
// jobs/lock_job in the transaction that commits the job's work, so a reaped and re-leased
// job cannot change hands before that transaction commits.
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner AND j.lease_token = $token
RETURN j.id AS id
