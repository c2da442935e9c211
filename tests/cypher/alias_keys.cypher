// Test helper: an agent's aliases with their agent_norm lookup key, in norm order.
// params: $agent_id string
// returns: norm string, agent_norm string|null
MATCH (a:Alias {agent_id: $agent_id})
RETURN a.norm AS norm, a.agent_norm AS agent_norm
ORDER BY norm
