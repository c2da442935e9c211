// An agent's merge candidates, most confident first.
// params: $agent_id string, $status string|null, $limit int
// returns: id, keep_key, drop_key, confidence, reason, status, created_at
MATCH (m:MergeCandidate {agent_id: $agent_id})
WHERE $status IS NULL OR m.status = $status
RETURN m.id AS id, m.keep_key AS keep_key, m.drop_key AS drop_key, m.confidence AS confidence,
       m.reason AS reason, m.status AS status, m.created_at AS created_at
ORDER BY m.confidence DESC, m.id
LIMIT $limit
