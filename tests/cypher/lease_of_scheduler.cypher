// Test helper: a scheduler lease as stored (and removal of a test's own lease).
// params: $name string
// returns: holder string|null, last_run string|null
MATCH (l:SchedulerLease {name: $name})
WITH l, l.holder AS holder, l.last_run AS last_run
DETACH DELETE l
RETURN holder, last_run
