// Test helper: remove an agent's AgentStats counter, as on a database written before the counter existed.
// params: $agent_id string
// returns: dropped int
MATCH (s:AgentStats {agent_id: $agent_id})
DELETE s
RETURN count(*) AS dropped
