// One page of an agent's facts, newest first, keyset-paginated by (created_at, id).
// params: $agent_id string, $as_of datetime|null, $include_invalidated bool, $entity_key string|null, $kind string|null, $entity_types list<string>|null (facts about an entity of one of these types), $after_at datetime|null, $after_id string|null, $limit int
// returns: fact map (no embedding)
MATCH (f:Fact {agent_id: $agent_id})
WHERE ($kind IS NULL OR f.kind = $kind)
  AND ($entity_key IS NULL
       OR EXISTS { MATCH (f)-[:ABOUT]->(:Entity {agent_id: $agent_id, key: $entity_key}) })
  AND ($entity_types IS NULL
       OR EXISTS { MATCH (f)-[:ABOUT]->(e:Entity {agent_id: $agent_id}) WHERE e.type IN $entity_types })
  AND ($after_at IS NULL OR f.created_at < $after_at
       OR (f.created_at = $after_at AND f.id > $after_id))
  AND ($as_of IS NULL OR f.created_at <= $as_of)
  AND ($include_invalidated
       OR ($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
       OR ($as_of IS NOT NULL AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
           AND coalesce(f.valid_from, f.created_at) <= $as_of
           AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .importance_category,
          .temporal_class, .valid_until, .categories, .language, .speaker, .valid_from,
          .valid_to, .invalidated_at, .created_at, .last_confirmed_at, .reinforcement_count,
          .review_needed} AS fact
ORDER BY f.created_at DESC, f.id
LIMIT $limit
