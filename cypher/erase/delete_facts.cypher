// Delete a batch of facts with their relationships (ABOUT, SUPERSEDES, FROM_EVENT, CAUSES, DERIVED_FROM).
// params: $agent_id string, $ids list<string> (one batch)
// returns: deleted int
// Subtracts what it deletes from the agent's AgentStats counter (read/agent_counts), if there is one.
UNWIND $ids AS fid
MATCH (f:Fact {id: fid}) WHERE f.agent_id = $agent_id
DETACH DELETE f
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.facts = s.facts - deleted
RETURN deleted
