// Hold (or renew) a scheduler lease and record when each kind was last scheduled (after scheduler_lock).
// params: $lease string, $holder string, $ttl_ms int, $last_run string (JSON kind → epoch ms)
// returns: holder string — no row when another live holder has it
MATCH (l:SchedulerLease {name: $lease})
WHERE l.holder IS NULL OR l.holder = $holder OR l.expires_at < datetime()
SET l.holder = $holder, l.expires_at = datetime() + duration({milliseconds: $ttl_ms}),
    l.renewed_at = datetime(), l.last_run = $last_run
RETURN l.holder AS holder
