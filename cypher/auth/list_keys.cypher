// Every API key (never the key itself), newest first, optionally for one tenant.
// params: $tenant string|null
// returns: id, tenant, agents, all_agents, admin, created_at, revoked_at
MATCH (k:ApiKey)
WHERE $tenant IS NULL OR k.tenant = $tenant
RETURN k.id AS id, k.tenant AS tenant, k.agents AS agents, k.all_agents AS all_agents,
       k.admin AS admin, k.created_at AS created_at, k.revoked_at AS revoked_at
ORDER BY k.created_at DESC
