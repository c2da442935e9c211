// One merge candidate of an agent by id.
// params: $agent_id string, $id string
// returns: id, keep_key, drop_key, status (no row when unknown)
MATCH (m:MergeCandidate {agent_id: $agent_id, id: $id})
RETURN m.id AS id, m.keep_key AS keep_key, m.drop_key AS drop_key, m.status AS status
