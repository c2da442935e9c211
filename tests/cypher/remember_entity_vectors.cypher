// Each entity of an agent: key, element id and vector.
// params: $agent_id string
// returns: key string, eid string, embedding list<float>
MATCH (e:Entity {agent_id: $agent_id})
RETURN e.key AS key, elementId(e) AS eid, e.embedding AS embedding
