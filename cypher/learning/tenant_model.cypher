// The newest ranking model of the tenant owning an agent; an agent nobody owns (auth off, the operator's CLI) takes the `$unowned` tenant's (no row: that tenant has no model of its own).
// params: $agent_id string, $unowned string
// returns: tenant string, version int, document string|null (null: the shipped model)
OPTIONAL MATCH (t:AgentTenant {agent_id: $agent_id})
WITH coalesce(t.tenant, $unowned) AS tenant
MATCH (m:RankerModel {tenant: tenant})
RETURN m.tenant AS tenant, m.version AS version, m.document AS document
ORDER BY m.version DESC LIMIT 1
