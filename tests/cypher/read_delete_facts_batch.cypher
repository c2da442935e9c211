// Bench/test helper (read): delete up to $batch facts of one agent (large agents are removed in several transactions to stay under the transaction memory limit).
// params: $agent_id string, $batch int
// returns: deleted int
// An AgentStats counter of the agent, if it has one, follows (read/agent_counts).
MATCH (f:Fact {agent_id: $agent_id})
WITH f
LIMIT $batch
DETACH DELETE f
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.facts = s.facts - deleted
RETURN deleted
