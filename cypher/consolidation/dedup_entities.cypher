// Entities of an agent with what duplicate detection compares (names, aliases, embedding).
// params: $agent_id string, $limit int
// returns: key, name, type, embedding, mentions, facts int, aliases list<string>, created_at
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.merged_into IS NULL
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
WITH e, collect(a.text) AS aliases
CALL (e) {
  MATCH (f:Fact)-[:ABOUT]->(e)
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  RETURN count(f) AS facts
}
RETURN e.key AS key, e.name AS name, e.type AS type, e.embedding AS embedding,
       coalesce(e.mentions, 0) AS mentions, facts, aliases, e.created_at AS created_at
ORDER BY e.key
LIMIT $limit
