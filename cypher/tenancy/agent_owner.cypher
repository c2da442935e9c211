// The tenant owning an agent id (no row: never used; null tenant: unclaimed legacy data).
// params: $agent_id string
// returns: tenant string|null
MATCH (o:AgentTenant {agent_id: $agent_id})
RETURN o.tenant AS tenant
