// Claim an agent id for a tenant (new id → $tenant; legacy owner node → $tenant only if $named).
// params: $agent_id string, $tenant string, $named bool
// returns: tenant string|null (the owner after the claim)
// The first SET takes the node's write lock, so the tenant read after it is the committed one.
MERGE (o:AgentTenant {agent_id: $agent_id})
ON CREATE SET o.tenant = $tenant, o.claimed_at = datetime()
SET o.locked_at = datetime()
WITH o
SET o.tenant = CASE WHEN o.tenant IS NULL AND $named THEN $tenant ELSE o.tenant END
RETURN o.tenant AS tenant
