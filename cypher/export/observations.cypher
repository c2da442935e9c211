// One page of an agent's observations for export, in id order, with the facts each derives from.
// params: $agent_id string, $after string, $limit int
// returns: id string, props map, derived_from list<string>
MATCH (o:Observation {agent_id: $agent_id})
WHERE o.id > $after
WITH o ORDER BY o.id LIMIT $limit
OPTIONAL MATCH (o)-[:DERIVED_FROM]->(f:Fact)
RETURN o.id AS id, properties(o) AS props, [i IN collect(f.id) WHERE i IS NOT NULL] AS derived_from
ORDER BY id
