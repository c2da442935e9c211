// The agents of a tenant (an ontology check of a tenant's ontology counts over all of them).
// params: $tenant string
// returns: agent_id string
MATCH (t:AgentTenant {tenant: $tenant})
RETURN t.agent_id AS agent_id ORDER BY agent_id
