// Spreading activation: from the top seed facts through their ABOUT entities along visible RELATES_TO edges (fixed bound *1..2, cut by $max_hops); activation = seed score x decay^hop; at most $max_related related entities and $per_entity facts each (most query-similar).
// params: $agent_id string, $seeds list<{id string, score float}>, $max_hops int, $decay float, $max_related int, $per_entity int, $per_entity_pool int, $scan int (visible facts read per related entity: a hub's bound), $exclude list<string>, $as_of datetime|null, $min_confidence float, $vector list<float>
// returns: fact map, activation float, hops int, semantic float (index scale) (times as integer microseconds since the epoch: cheap to decode)
UNWIND $seeds AS seed
MATCH (sf:Fact {id: seed.id})-[:ABOUT]->(e0:Entity)
WHERE sf.agent_id = $agent_id
MATCH p = (e0)-[:RELATES_TO*1..2]-(e:Entity)
WHERE length(p) <= $max_hops AND e <> e0
  AND all(r IN relationships(p) WHERE (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
         OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
             AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
             AND coalesce(r.valid_from, r.created_at) <= $as_of
             AND (r.valid_to IS NULL OR r.valid_to > $as_of))))
WITH e, min(length(p)) AS hop, max(seed.score * $decay ^ length(p)) AS activation
ORDER BY activation DESC, e.key
LIMIT $max_related
CALL {
  WITH e
  MATCH (f:Fact)-[:ABOUT]->(e)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE f.agent_id + '' = $agent_id AND NOT f.id IN $exclude
    AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
    OR ($as_of IS NOT NULL AND f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  // Bound the work on hub entities: at most $scan visible facts read, then the cosine on the
  // most important / recent of those.
  WITH f LIMIT $scan
  WITH f
  ORDER BY coalesce(f.importance, 0.5) DESC, f.created_at DESC, f.id
  LIMIT $per_entity_pool
  WITH f, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
  ORDER BY semantic DESC, f.id
  LIMIT $per_entity
  RETURN f, semantic
}
WITH f, max(activation) AS activation, min(hop) AS hops, max(semantic) AS semantic
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, activation, hops, semantic
ORDER BY activation DESC, semantic DESC, fact.id
