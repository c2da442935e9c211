// One page of an agent's entities for export, in key order (keyset paging: pass the last key).
// params: $agent_id string, $after string, $limit int
// returns: key string, props map
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.key > $after
RETURN e.key AS key, properties(e) AS props
ORDER BY key
LIMIT $limit
