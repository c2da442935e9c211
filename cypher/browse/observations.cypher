// An agent's observations (consolidated patterns), newest first, with the facts they derive from.
// params: $agent_id string, $limit int
// returns: observation map + fact_ids list<string>
MATCH (o:Observation {agent_id: $agent_id})
OPTIONAL MATCH (o)-[:DERIVED_FROM]->(f:Fact)
WITH o, collect(f.id) AS fact_ids
RETURN o {.id, .text, .kind, .created_at, .updated_at, fact_ids: fact_ids} AS observation
ORDER BY o.updated_at DESC, o.created_at DESC
LIMIT $limit
