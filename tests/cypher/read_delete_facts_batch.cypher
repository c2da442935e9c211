// Bench/test helper (read): delete up to $batch facts of one agent (large agents are removed in several transactions to stay under the transaction memory limit).
// params: $agent_id string, $batch int
// returns: deleted int
MATCH (f:Fact {agent_id: $agent_id})
WITH f
LIMIT $batch
DETACH DELETE f
RETURN count(*) AS deleted
