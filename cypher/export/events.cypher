// One page of an agent's events for export, in id order (keyset paging: pass the last id).
// params: $agent_id string, $after string, $limit int
// returns: id string, props map
MATCH (n:Event {agent_id: $agent_id})
WHERE n.id > $after
RETURN n.id AS id, properties(n) AS props
ORDER BY id
LIMIT $limit
