// Record the review decision on an open merge candidate (merged / rejected).
// params: $agent_id string, $id string, $status string, $now datetime
// returns: id, keep_key, drop_key, status (no row when the candidate is unknown or not open)
MATCH (m:MergeCandidate {agent_id: $agent_id, id: $id})
WHERE m.status = 'open'
SET m.status = $status, m.resolved_at = $now
RETURN m.id AS id, m.keep_key AS keep_key, m.drop_key AS drop_key, m.status AS status
