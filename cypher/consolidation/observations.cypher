// An agent's observations with the facts each was derived from (newest first).
// params: $agent_id string, $limit int
// returns: id, text, kind, created_at, updated_at, fact_ids list<string>
MATCH (o:Observation {agent_id: $agent_id})
OPTIONAL MATCH (o)-[:DERIVED_FROM]->(f:Fact)
WITH o, collect(f.id) AS fact_ids
RETURN o.id AS id, o.text AS text, o.kind AS kind, o.created_at AS created_at,
       o.updated_at AS updated_at, fact_ids
ORDER BY o.updated_at DESC, o.id
LIMIT $limit
