// Test helper (multi-tenant read tests): delete the bare facts of the given crowd agents (batch, through the agent_id index).
// params: $agent_ids list<string>
// returns: deleted int
// An AgentStats counter of the agent, if it has one, follows (read/agent_counts).
MATCH (f:Fact)
WHERE f.agent_id IN $agent_ids
WITH f, f.agent_id AS agent
DETACH DELETE f
WITH agent, count(*) AS n
OPTIONAL MATCH (s:AgentStats {agent_id: agent})
SET s.facts = s.facts - n
RETURN sum(n) AS deleted
