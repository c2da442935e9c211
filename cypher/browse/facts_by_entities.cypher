// Facts about each of several entities, visible under the as_of rule (DataLoader batch).
// params: $agent_id string, $keys list<string>, $as_of datetime|null, $include_invalidated bool, $kind string|null, $per_entity int
// returns: key string, facts list<fact map + primary bool>, newest first, at most $per_entity each
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
CALL (e) {
  MATCH (f:Fact)-[a:ABOUT]->(e)
  WHERE ($kind IS NULL OR f.kind = $kind)
    AND ($as_of IS NULL OR f.created_at <= $as_of)
    AND ($include_invalidated
         OR ($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
         OR ($as_of IS NOT NULL AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
             AND coalesce(f.valid_from, f.created_at) <= $as_of
             AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f, a ORDER BY f.created_at DESC, f.id LIMIT $per_entity
  RETURN collect(f {.id, .text, .subject_key, .kind, .confidence, .importance,
                    .importance_category, .temporal_class, .valid_until, .categories, .language,
                    .speaker, .valid_from, .valid_to, .invalidated_at, .created_at,
                    .last_confirmed_at, .reinforcement_count, .review_needed,
                    primary: coalesce(a.primary, false)}) AS facts
}
RETURN key, facts
