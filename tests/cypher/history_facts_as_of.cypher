// Time travel: the agent's facts as the system knew them at $as_of and valid at that instant.
// params: $agent_id string, $as_of datetime, $subject_key string|null, $limit int
// returns: id, text, subject_key, kind, confidence, valid_from, valid_to, invalidated_at, created_at, reinforcement_count
MATCH (f:Fact {agent_id: $agent_id})
WHERE ($subject_key IS NULL OR f.subject_key = $subject_key)
  AND f.created_at <= $as_of AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
  AND coalesce(f.valid_from, f.created_at) <= $as_of AND (f.valid_to IS NULL OR f.valid_to > $as_of)
RETURN f.id AS id, f.text AS text, f.subject_key AS subject_key, f.kind AS kind,
       f.confidence AS confidence, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.invalidated_at AS invalidated_at, f.created_at AS created_at,
       f.reinforcement_count AS reinforcement_count
ORDER BY f.created_at, f.id
LIMIT $limit
