// Remove consolidation observations whose source facts no longer form their cluster.
// params: $agent_id string, $ids list<string>
// returns: deleted int
MATCH (o:Observation {agent_id: $agent_id})
WHERE o.id IN $ids AND o.source = 'consolidation'
DETACH DELETE o
RETURN count(*) AS deleted
