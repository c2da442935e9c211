// Active facts of the agent whose content_hash is in the list (exact-duplicate detection).
// params: $agent_id string, $hashes list<string>
// returns: content_hash string, id string, reinforcement_count int
UNWIND $hashes AS h
MATCH (f:Fact {agent_id: $agent_id, content_hash: h})
// Pinned: without it a plan made on other statistics seeks the agent's facts by agent_id alone
// and filters each of a few thousand hashes through them (a bulk import timed out).
USING INDEX f:Fact(agent_id, content_hash)
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
RETURN h AS content_hash, f.id AS id, f.reinforcement_count AS reinforcement_count
