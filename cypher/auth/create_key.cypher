// Store a new API key (only its sha256 hash) with the agents it may access.
// params: $id string, $tenant string, $key_hash string, $agents list<string>, $all_agents bool, $admin bool
// returns: id string
CREATE (k:ApiKey {id: $id, tenant: $tenant, key_hash: $key_hash, agents: $agents,
                  all_agents: $all_agents, admin: $admin, created_at: datetime(),
                  revoked_at: null})
RETURN k.id AS id
