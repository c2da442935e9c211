// Every vector of an agent by element id (embedding-space tests).
// params: $agent_id string
// returns: eid string, embedding list<float>
MATCH (n {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, n.embedding AS embedding
