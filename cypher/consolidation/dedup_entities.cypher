// Entities of an agent with what duplicate detection compares (names, aliases, embedding).
// params: $agent_id string, $limit int
// returns: key, name, type, embedding, mentions, aliases list<string>, created_at
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.merged_into IS NULL
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
WITH e, collect(a.text) AS aliases
RETURN e.key AS key, e.name AS name, e.type AS type, e.embedding AS embedding,
       coalesce(e.mentions, 0) AS mentions, aliases, e.created_at AS created_at
ORDER BY e.key
LIMIT $limit
