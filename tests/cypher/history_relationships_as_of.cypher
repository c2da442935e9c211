// Time travel: the agent's entity relationships known and valid at $as_of (optionally around one entity).
// params: $agent_id string, $as_of datetime, $entity_key string|null, $limit int
// returns: id, type, source_key, target_key, strength, valid_from, valid_to, invalidated_at, evidence_fact_id
MATCH (s:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(t:Entity)
WHERE ($entity_key IS NULL OR s.key = $entity_key OR t.key = $entity_key)
  AND r.created_at <= $as_of AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
  AND coalesce(r.valid_from, r.created_at) <= $as_of AND (r.valid_to IS NULL OR r.valid_to > $as_of)
RETURN r.id AS id, r.type AS type, s.key AS source_key, t.key AS target_key,
       r.strength AS strength, r.valid_from AS valid_from, r.valid_to AS valid_to,
       r.invalidated_at AS invalidated_at, r.evidence_fact_id AS evidence_fact_id
ORDER BY r.created_at, r.id
LIMIT $limit
