// Agents with due pending jobs and their tenant (the fair lease picks the least recently served).
// params: $kinds list<string> or null, $limit int
// returns: agent_id string, tenant string|null
MATCH (j:Job)
WHERE j.status = 'pending' AND j.run_after <= datetime()
  AND ($kinds IS NULL OR j.kind IN $kinds)
WITH DISTINCT j.agent_id AS agent_id
LIMIT $limit
OPTIONAL MATCH (o:AgentTenant {agent_id: agent_id})
RETURN agent_id, o.tenant AS tenant
