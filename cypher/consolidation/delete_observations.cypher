// Remove consolidation observations whose source facts no longer form their cluster.
// params: $agent_id string, $ids list<string>
// returns: deleted int
// Subtracts what it deletes from the agent's AgentStats counter (read/agent_counts), if there is one.
MATCH (o:Observation {agent_id: $agent_id})
WHERE o.id IN $ids AND o.source = 'consolidation'
DETACH DELETE o
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.observations = s.observations - deleted
RETURN deleted
