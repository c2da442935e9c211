// Record a failed attempt: back to pending after a delay, or dead (kept for audit).
// params: $id string, $owner string, $token int or null (the lease's fencing token), $status string ('pending'|'dead'), $delay_ms int, $error string, $code string (JOB_ERROR_CODES)
// returns: id string, status string, attempts int — no row when the lease was lost
MATCH (j:Job {id: $id})
WHERE j.status = 'leased' AND j.lease_owner = $owner
  AND ($token IS NULL OR j.lease_token = $token)
SET j.status = $status, j.last_error = $error, j.last_error_code = $code, j.lease_owner = null, j.leased_at = null,
    j.run_after = datetime() + duration({milliseconds: $delay_ms}),
    j.finished_at = CASE WHEN $status = 'dead' THEN datetime() ELSE null END
RETURN j.id AS id, j.status AS status, j.attempts AS attempts
