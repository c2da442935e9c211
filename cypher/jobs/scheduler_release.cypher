// Give a scheduler lease up (a stopping holder), so another process takes over at its next tick.
// params: $lease string, $holder string
// returns: name string — no row when $holder did not hold it
MATCH (l:SchedulerLease {name: $lease})
WHERE l.holder = $holder
SET l.holder = null, l.expires_at = null
RETURN l.name AS name
