// Look up an active (not revoked) API key by the sha256 hash of the presented key.
// params: $key_hash string
// returns: id, tenant, agents, all_agents, admin (no row when unknown or revoked)
MATCH (k:ApiKey {key_hash: $key_hash})
WHERE k.revoked_at IS NULL
RETURN k.id AS id, k.tenant AS tenant, k.agents AS agents, k.all_agents AS all_agents,
       k.admin AS admin
LIMIT 1
