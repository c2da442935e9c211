// Return locked stale leases to pending (or dead once the attempt budget is spent).
// params: $ids list<string>, $lease_ms int
// returns: id string, status string
MATCH (j:Job)
WHERE j.id IN $ids AND j.status = 'leased'
  AND j.leased_at < datetime() - duration({milliseconds: $lease_ms})
SET j.status = CASE WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'pending' END,
    j.last_error = 'lease expired (worker died or stalled)', j.last_error_code = 'LEASE_EXPIRED',
    j.lease_owner = null, j.leased_at = null, j.run_after = datetime(),
    j.finished_at = CASE WHEN j.attempts >= j.max_attempts THEN datetime() ELSE null END
RETURN j.id AS id, j.status AS status
