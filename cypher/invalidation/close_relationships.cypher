// Close relationships by id (a single-valued type got a new target, or an explicit retraction).
// params: $agent_id string, $ids list<string>, $now datetime
// returns: id string
UNWIND $ids AS rid
MATCH ()-[r:RELATES_TO {id: rid}]->()
WHERE r.agent_id = $agent_id AND r.valid_to IS NULL AND r.invalidated_at IS NULL
SET r.valid_to = $now, r.invalidated_at = $now
RETURN r.id AS id
