// Every webhook with the agents it covers now (an agent webhook its agent; a tenant webhook the agents that tenant owns) and each agent's tenant.
// params: none
// returns: webhook map {id, events, created_at}, agents list<map {agent_id, tenant}>
MATCH (w:Webhook)
CALL (w) {
  WITH w WHERE w.scope = 'agent'
  OPTIONAL MATCH (o:AgentTenant {agent_id: w.agent_id})
  RETURN [{agent_id: w.agent_id, tenant: o.tenant}] AS agents
  UNION
  WITH w WHERE w.scope = 'tenant'
  OPTIONAL MATCH (o:AgentTenant {tenant: w.tenant})
  RETURN collect({agent_id: o.agent_id, tenant: o.tenant}) AS agents
}
RETURN w {.id, .events, .created_at} AS webhook, agents
