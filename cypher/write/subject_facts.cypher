// Facts whose subject is an entity (merge needs their normalized text to recompute hashes).
// params: $agent_id string, $subject_key string
// returns: id string, normalized string
MATCH (f:Fact {agent_id: $agent_id, subject_key: $subject_key})
RETURN f.id AS id, f.normalized AS normalized
