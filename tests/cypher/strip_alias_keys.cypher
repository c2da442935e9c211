// Test helper: remove the agent_norm lookup key from an agent's aliases, as they were written before schema version 10.
// params: $agent_id string
// returns: stripped int
MATCH (a:Alias {agent_id: $agent_id})
REMOVE a.agent_norm
RETURN count(a) AS stripped
