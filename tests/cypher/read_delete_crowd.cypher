// Test helper (multi-tenant read tests): delete the bare facts of the given crowd agents (batch, through the agent_id index).
// params: $agent_ids list<string>
// returns: deleted int
MATCH (f:Fact)
WHERE f.agent_id IN $agent_ids
DETACH DELETE f
RETURN count(*) AS deleted
