// Test helper (read tests): give an entity relationship a creation time and optionally close it (valid_to + invalidated_at).
// params: $agent_id string, $source string (key), $target string (key), $type string, $created datetime, $closed datetime|null
// returns: updated int
MATCH (:Entity {agent_id: $agent_id, key: $source})-[r:RELATES_TO {type: $type}]->(:Entity {agent_id: $agent_id, key: $target})
SET r.created_at = $created, r.valid_from = $created, r.last_seen_at = $created,
    r.valid_to = $closed, r.invalidated_at = $closed
RETURN count(r) AS updated
