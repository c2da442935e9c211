// Delete every API key of one tenant (tests and tenant removal).
// params: $tenant string
// returns: deleted int
MATCH (k:ApiKey {tenant: $tenant})
DETACH DELETE k
RETURN count(*) AS deleted
