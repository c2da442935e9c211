// Lease a job whose lock this transaction holds, if it is still pending and due.
// params: $id string, $owner string, $due_only bool
// returns: job map (all properties) — no row when another worker got it first
MATCH (j:Job {id: $id})
WHERE j.status = 'pending' AND (NOT $due_only OR j.run_after <= datetime())
SET j.status = 'leased', j.leased_at = datetime(), j.lease_owner = $owner,
    j.attempts = coalesce(j.attempts, 0) + 1,
    j.lease_token = coalesce(j.lease_token, 0) + 1  // fencing token: one per lease
RETURN properties(j) AS job
