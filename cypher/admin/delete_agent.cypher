// Delete up to $batch nodes of one agent; callers repeat until deleted = 0 (bounded tx memory).
// params: $agent_id string, $batch int
// returns: deleted int
MATCH (n {agent_id: $agent_id})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
