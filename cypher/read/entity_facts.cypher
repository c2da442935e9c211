// Entity-centric expansion: the seed entities (named in the query, and the entities of the given seed facts) and their 1-hop neighbours (entities co-mentioned with a seed in a visible fact, or joined to it by a visible RELATES_TO), each with its ABOUT degree (how many facts mention it: the caller weighs an entity by its specificity); a seed or neighbour with more than $hub_max facts is not expanded (a speaker is co-mentioned with everything); per entity the $per_seed (seed) or $per_neighbour (neighbour) most query-similar of its $pool newest visible facts.
// params: $agent_id string, $seeds list<{key string, weight float}>, $fact_seeds list<{id string, weight float}>, $as_of datetime|null, $min_confidence float, $vector list<float>, $hub_max int, $decay float, $max_entities int, $pool int, $per_seed int, $per_neighbour int
// returns: key string, hops int, weight float (seed weight x decay^hops), degree int, fact map, semantic float (index scale) (times as integer microseconds since the epoch: cheap to decode)
CALL {
  UNWIND $seeds AS seed
  MATCH (s:Entity {agent_id: $agent_id, key: seed.key})
  RETURN s, seed.weight AS weight
  UNION ALL
  UNWIND $fact_seeds AS seed
  MATCH (sf:Fact {id: seed.id})-[:ABOUT]->(s:Entity)
  WHERE sf.agent_id = $agent_id
  RETURN s, seed.weight AS weight
}
WITH s, max(weight) AS weight
WHERE s.merged_into IS NULL
WITH s, weight, COUNT { (s)<-[:ABOUT]-() } AS degree
CALL {
  WITH s, weight, degree
  RETURN s AS e, 0 AS hops, weight AS w, degree AS deg
  UNION
  WITH s, weight, degree
  MATCH (s)<-[:ABOUT]-(f:Fact)-[:ABOUT]->(n:Entity)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE degree <= $hub_max AND f.agent_id + '' = $agent_id AND n <> s AND n.merged_into IS NULL
    AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH DISTINCT n, weight
  WITH n, weight, COUNT { (n)<-[:ABOUT]-() } AS ndeg
  WHERE ndeg <= $hub_max
  RETURN n AS e, 1 AS hops, weight AS w, ndeg AS deg
  UNION
  WITH s, weight, degree
  MATCH (s)-[r:RELATES_TO]-(n:Entity)
  // n's agent in a form no index answers: the plan expands from s, never joins s with every
  // entity of the agent (chosen by the planner where other agents' graphs are dense)
  WHERE n.agent_id + '' = $agent_id AND n.merged_into IS NULL
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
          AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
          AND coalesce(r.valid_from, r.created_at) <= $as_of
          AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN n AS e, 1 AS hops, weight AS w, COUNT { (n)<-[:ABOUT]-() } AS deg
}
WITH e, min(hops) AS hops, max(w * $decay ^ hops) AS weight, max(deg) AS degree
ORDER BY weight DESC, degree ASC, e.key
LIMIT $max_entities
CALL {
  WITH e, hops
  MATCH (f:Fact)-[:ABOUT]->(e)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE f.agent_id + '' = $agent_id AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH hops, f ORDER BY f.created_at DESC, f.id LIMIT $pool
  WITH hops, f, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
  ORDER BY semantic DESC, f.id
  WITH hops, collect({f: f, semantic: semantic}) AS ranked
  UNWIND ranked[0..CASE WHEN hops = 0 THEN $per_seed ELSE $per_neighbour END] AS r
  RETURN r.f AS f, r.semantic AS semantic
}
RETURN e.key AS key, hops, weight, degree,
       f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count,
          created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
          valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
          valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
          invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
          .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
          event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, semantic
ORDER BY weight DESC, key, semantic DESC, fact.id
