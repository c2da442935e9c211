// Graph signal: BFS up to 2 hops (fixed bound *0..2, cut by $max_hops) from the planner's entities over visible RELATES_TO edges, then visible facts through ABOUT; proximity = strength x edge recency x query bonus (named) x hop decay (1.0 up to hop 1, $hop_decay at hop 2), edge recency floored at 0.5. The caller multiplies by the fact's own recency (no per-fact date maths here).
// params: $agent_id string, $seeds list<{key string, named bool}>, $max_entities int, $max_hops int, $hop_decay float, $query_bonus float, $half_life_days float, $now datetime, $as_of datetime|null, $min_confidence float, $vector list<float>, $pool int (graph candidates whose cosine is computed), $budget int (ABOUT degree of the strictly closer entities under which an entity is read), $scan int (visible facts read per entity), $limit int
// returns: fact map, proximity float, hops int, semantic float (index scale) (times as integer microseconds since the epoch: cheap to decode)
UNWIND $seeds AS seed
MATCH (s:Entity {agent_id: $agent_id, key: seed.key})
MATCH p = (s)-[:RELATES_TO*0..2]-(e:Entity)
WHERE length(p) <= $max_hops
  AND all(r IN relationships(p) WHERE (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
         OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
             AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
             AND coalesce(r.valid_from, r.created_at) <= $as_of
             AND (r.valid_to IS NULL OR r.valid_to > $as_of))))
WITH seed, e, length(p) AS hops,
     reduce(x = 1.0, r IN relationships(p) | x * coalesce(r.strength, 0.8)) AS strength,
     reduce(x = 1.0, r IN relationships(p) |
       CASE WHEN 0.5 + 0.5 * 0.5 ^ (($now.epochSeconds - coalesce(r.last_seen_at, r.created_at, $now).epochSeconds) / 86400.0 / $half_life_days) < x
            THEN 0.5 + 0.5 * 0.5 ^ (($now.epochSeconds - coalesce(r.last_seen_at, r.created_at, $now).epochSeconds) / 86400.0 / $half_life_days)
            ELSE x END) AS edge_recency
WITH e, min(hops) AS hops,
     max(strength * edge_recency
         * CASE WHEN seed.named AND hops = 0 THEN $query_bonus ELSE 1.0 END
         * CASE WHEN hops >= 2 THEN $hop_decay ELSE 1.0 END) AS proximity
// Bounded fan-out: the $max_entities closest entities, read closest first while the ABOUT degree of the strictly closer ones stays under $budget (the answer is ordered by proximity first: once closer entities hold $limit visible facts, a farther entity's cannot enter it; entities of one proximity are read together), at most $scan visible facts of each (a hub's bound), the newest $pool of those.
ORDER BY proximity DESC, e.key
LIMIT $max_entities
WITH collect({e: e, hops: hops, proximity: proximity, degree: COUNT { (e)<-[:ABOUT]-() }}) AS ranked
UNWIND range(0, size(ranked) - 1) AS i
WITH ranked[i] AS x,
     reduce(n = 0, y IN ranked[0..i] | n + CASE WHEN y.proximity > ranked[i].proximity THEN y.degree ELSE 0 END) AS closer
WHERE closer < $budget
WITH x.e AS e, x.hops AS hops, x.proximity AS proximity
CALL {
  WITH e
  MATCH (f:Fact)-[:ABOUT]->(e)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE f.agent_id + '' = $agent_id AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f LIMIT $scan
  WITH f ORDER BY f.created_at DESC, f.id LIMIT $pool
  RETURN f
}
WITH f, min(hops) AS hops, max(proximity) AS proximity
// Bound the cosine work on hub entities: the closest $pool, newest first among equals.
ORDER BY proximity DESC, f.created_at DESC, f.id
LIMIT $pool
WITH f, hops, proximity, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
ORDER BY proximity DESC, semantic DESC, f.id
LIMIT $limit
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, proximity, hops, semantic
ORDER BY proximity DESC, semantic DESC, fact.id
