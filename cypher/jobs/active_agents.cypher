// Agents that have entities (the scheduler plans periodic maintenance for them).
// params: $limit int, $agent_id string|null (only this agent: a dedicated scheduler, tests)
// returns: agent_id string
MATCH (e:Entity)
WHERE e.agent_id IS NOT NULL AND ($agent_id IS NULL OR e.agent_id = $agent_id)
RETURN DISTINCT e.agent_id AS agent_id
LIMIT $limit
