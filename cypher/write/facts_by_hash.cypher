// Active facts of the agent whose content_hash is in the list (exact-duplicate detection).
// params: $agent_id string, $hashes list<string>
// returns: content_hash string, id string, reinforcement_count int
UNWIND $hashes AS h
MATCH (f:Fact {agent_id: $agent_id, content_hash: h})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
RETURN h AS content_hash, f.id AS id, f.reinforcement_count AS reinforcement_count
