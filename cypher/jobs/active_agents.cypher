// Agents that have entities (the scheduler plans periodic maintenance for them).
// params: $limit int
// returns: agent_id string
MATCH (e:Entity)
WHERE e.agent_id IS NOT NULL
RETURN DISTINCT e.agent_id AS agent_id
LIMIT $limit
