// Take the write lock of a scheduler lease (creating it first); scheduler_claim follows in the same tx.
// params: $lease string
// returns: holder string|null, expires_ms int|null, now_ms int, last_run string|null (JSON kind → epoch ms)
MERGE (l:SchedulerLease {name: $lease})
  ON CREATE SET l.created_at = datetime()
SET l._lock = true
REMOVE l._lock
RETURN l.holder AS holder, l.expires_at.epochMillis AS expires_ms,
       datetime().epochMillis AS now_ms, l.last_run AS last_run
