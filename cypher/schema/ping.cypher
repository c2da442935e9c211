// Liveness probe used by /readyz.
// params: none
// returns: ok int
RETURN 1 AS ok
