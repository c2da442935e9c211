// One page of an agent's entity relationships (every RELATES_TO version) for export, in id order.
// params: $agent_id string, $after string, $limit int
// returns: id string, source string (entity key), target string (entity key), props map
MATCH (a:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(b:Entity)
WHERE coalesce(r.id, elementId(r)) > $after
RETURN coalesce(r.id, elementId(r)) AS id, a.key AS source, b.key AS target, properties(r) AS props
ORDER BY id
LIMIT $limit
