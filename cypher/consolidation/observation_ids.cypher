// Ids of an agent's consolidation observations.
// params: $agent_id string
// returns: id string
MATCH (o:Observation {agent_id: $agent_id})
WHERE o.source = 'consolidation'
RETURN o.id AS id
