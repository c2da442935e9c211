// How many entities match the entities_page filters (for totalCount).
// params: $agent_id string, $types list<string>|null (a type and its subtypes), $text string|null (lowercase), $include_merged bool
// returns: total int
MATCH (e:Entity {agent_id: $agent_id})
WHERE ($types IS NULL OR e.type IN $types)
  AND ($include_merged OR e.merged_into IS NULL)
  AND ($text IS NULL OR toLower(e.name) CONTAINS $text OR e.key CONTAINS $text
       OR EXISTS { MATCH (a:Alias)-[:ALIAS_OF]->(e) WHERE toLower(a.text) CONTAINS $text })
RETURN count(e) AS total
