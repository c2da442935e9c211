// Delete up to $batch of an agent's job dedup slots created before $cutoff whose job is no longer pending or leased (enqueue creates a slot again when needed).
// params: $agent_id string, $cutoff datetime, $batch int
// returns: deleted int
MATCH (d:JobDedup {agent_id: $agent_id})
WHERE d.created_at < $cutoff
  AND NOT EXISTS { MATCH (j:Job {id: d.active_job_id}) WHERE j.status IN ['pending', 'leased'] }
WITH d LIMIT $batch
DETACH DELETE d
RETURN count(*) AS deleted
