// Bench/test helper: how many active facts one agent has.
// params: $agent_id string
// returns: facts int
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
RETURN count(f) AS facts
