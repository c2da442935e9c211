// Delete up to $batch of an agent's idempotency receipts completed (or claimed and abandoned) before $cutoff.
// params: $agent_id string, $cutoff datetime, $batch int
// returns: deleted int
MATCH (w:WriteReceipt {agent_id: $agent_id})
WHERE coalesce(w.completed_at, w.created_at) < $cutoff
WITH w LIMIT $batch
DETACH DELETE w
RETURN count(*) AS deleted
