// Delete up to $batch of an agent's jobs finished (done or dead) before $cutoff.
// params: $agent_id string, $cutoff datetime, $batch int
// returns: deleted int
MATCH (j:Job {agent_id: $agent_id})
WHERE j.status IN ['done', 'dead'] AND coalesce(j.finished_at, j.created_at) < $cutoff
WITH j LIMIT $batch
DETACH DELETE j
RETURN count(*) AS deleted
