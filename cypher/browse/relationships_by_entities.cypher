// Entity relationships (RELATES_TO, both directions) of several entities under the as_of rule.
// params: $agent_id string, $keys list<string>, $as_of datetime|null, $include_invalidated bool, $per_entity int
// returns: key string, rels list<relationship map with source/target keys and names>, newest first, at most $per_entity each
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
CALL (e) {
  MATCH (e)-[r:RELATES_TO]-(o:Entity)
  WHERE ($as_of IS NULL OR r.created_at <= $as_of)
    AND ($include_invalidated
         OR ($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
         OR ($as_of IS NOT NULL AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
             AND coalesce(r.valid_from, r.created_at) <= $as_of
             AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  WITH r, startNode(r) AS s, endNode(r) AS t ORDER BY r.created_at DESC, r.id LIMIT $per_entity
  RETURN collect(r {.id, .type, .strength, .mentions, .confidence, .valid_from, .valid_to,
                    .invalidated_at, .evidence_fact_id, .created_at, .last_seen_at,
                    source_key: s.key, source_name: s.name,
                    target_key: t.key, target_name: t.name}) AS rels
}
RETURN key, rels
