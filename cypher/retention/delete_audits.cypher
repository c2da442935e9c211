// Delete up to $batch of an agent's audit records written before $cutoff (the decision history is kept only as long as the operator configures).
// params: $agent_id string, $cutoff datetime, $batch int
// returns: deleted int
MATCH (a:Audit {agent_id: $agent_id})
WHERE a.created_at < $cutoff
WITH a LIMIT $batch
DETACH DELETE a
RETURN count(*) AS deleted
