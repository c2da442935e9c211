// Test helper (read tests): close facts of one agent as an UPDATE would (valid_to + invalidated_at), optionally linking the superseding fact.
// params: $agent_id string, $ids list<string>, $at datetime
// returns: closed int
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.id IN $ids
SET f.valid_to = $at, f.invalidated_at = $at
RETURN count(f) AS closed
