// RELATES_TO edges among a set of entities, visible under the as_of rule (graph UI edges).
// params: $agent_id string, $keys list<string>, $as_of datetime|null, $types list<string>|null (only these types)
// returns: relationship map with source_key/target_key
MATCH (s:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(t:Entity {agent_id: $agent_id})
WHERE s.key IN $keys AND t.key IN $keys
  AND ($types IS NULL OR r.type IN $types)
  AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
       OR ($as_of IS NOT NULL AND r.created_at <= $as_of
           AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
           AND coalesce(r.valid_from, r.created_at) <= $as_of
           AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
RETURN r {.id, .type, .strength, .mentions, .confidence, .valid_from, .valid_to,
          .invalidated_at, .evidence_fact_id, .created_at, .last_seen_at,
          source_key: s.key, source_name: s.name, target_key: t.key, target_name: t.name} AS rel
