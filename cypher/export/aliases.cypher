// One page of an agent's aliases for export, in norm order, with the entities they name.
// params: $agent_id string, $after string, $limit int
// returns: norm string, props map, entity_keys list<string>
MATCH (a:Alias {agent_id: $agent_id})
WHERE a.norm > $after
WITH a ORDER BY a.norm LIMIT $limit
OPTIONAL MATCH (a)-[:ALIAS_OF]->(e:Entity)
RETURN a.norm AS norm, properties(a) AS props, [k IN collect(e.key) WHERE k IS NOT NULL] AS entity_keys
ORDER BY norm
