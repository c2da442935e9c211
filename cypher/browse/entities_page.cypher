// One page of an agent's entities, keyset-paginated by key, optionally filtered by type and text.
// params: $agent_id string, $types list<string>|null (a type and its subtypes), $text string|null (lowercase), $after string|null, $limit int, $include_merged bool
// returns: entity map (no embedding), one row per entity ordered by key
MATCH (e:Entity {agent_id: $agent_id})
WHERE ($types IS NULL OR e.type IN $types)
  AND ($after IS NULL OR e.key > $after)
  AND ($include_merged OR e.merged_into IS NULL)
  AND ($text IS NULL OR toLower(e.name) CONTAINS $text OR e.key CONTAINS $text
       OR EXISTS { MATCH (a:Alias)-[:ALIAS_OF]->(e) WHERE toLower(a.text) CONTAINS $text })
RETURN e {.key, .name, .type, .profile_text, .profile_refreshed_at, .summary_text, .mentions,
          .importance, .source, .created_at, .updated_at, .merged_into} AS entity
ORDER BY e.key
LIMIT $limit
