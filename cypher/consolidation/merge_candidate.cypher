// One merge candidate of an agent.
// params: $agent_id string, $id string
// returns: id, keep_key, drop_key, confidence, reason, status
MATCH (m:MergeCandidate {id: $id, agent_id: $agent_id})
RETURN m.id AS id, m.keep_key AS keep_key, m.drop_key AS drop_key, m.confidence AS confidence,
       m.reason AS reason, m.status AS status
