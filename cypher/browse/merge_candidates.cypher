// An agent's entity merge candidates, optionally by status, most confident first.
// params: $agent_id string, $status string|null, $limit int
// returns: merge candidate map with the names of both entities
MATCH (m:MergeCandidate {agent_id: $agent_id})
WHERE $status IS NULL OR m.status = $status
OPTIONAL MATCH (k:Entity {agent_id: $agent_id, key: m.keep_key})
OPTIONAL MATCH (d:Entity {agent_id: $agent_id, key: m.drop_key})
RETURN m {.id, .keep_key, .drop_key, .confidence, .reason, .status, .created_at,
          keep_name: k.name, drop_name: d.name} AS candidate
ORDER BY m.confidence DESC, m.created_at DESC
LIMIT $limit
