// Spreading activation: from the best-ranked facts (each with its score relative to the best one) through the entities they mention (ABOUT) to those entities themselves (hop 0: facts that share an entity) and to their neighbours over visible RELATES_TO (hop 1), then to the facts about the entities reached. An entity's activation = the seed's score x decay (hop 0: $shared; hop 1: 1.0 when a word of the relation's type starts with one of $terms, the query's word stems, else $unmatched); hubs (more than $hub_max facts) are neither left nor reached; the $max_entities entities of highest activation x specificity are read, best first while the ABOUT degree of the better ones stays under $budget, per entity the $per_entity most query-similar of its first $scan visible facts (seed facts excluded).
// params: $agent_id string, $seeds list<{id string, score float}>, $terms list<string>, $shared float, $unmatched float, $hub_max int, $agent_facts int, $max_entities int, $budget int, $per_entity int, $scan int, $as_of datetime|null, $min_confidence float, $vector list<float>, $glosses bool (the English glosses' vectors count too)
// returns: key string, hops int, weight float (the activation, before specificity), degree int, fact map, semantic float (index scale; a glossed fact's better of both vectors), text_semantic float|null, gloss_semantic float|null (each vector's cosine; null: no gloss) (times as integer microseconds since the epoch: cheap to decode)
UNWIND $seeds AS seed
MATCH (sf:Fact {id: seed.id})-[:ABOUT]->(e0:Entity)
WHERE sf.agent_id = $agent_id AND e0.merged_into IS NULL
WITH seed, e0, COUNT { (e0)<-[:ABOUT]-() } AS d0
WHERE d0 <= $hub_max
CALL (seed, e0, d0) {
  RETURN e0 AS e, 0 AS hops, seed.score * $shared AS w, d0 AS degree
  UNION
  MATCH (e0)-[r:RELATES_TO]-(n:Entity)
  WHERE n.merged_into IS NULL AND n <> e0
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
          AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
          AND coalesce(r.valid_from, r.created_at) <= $as_of
          AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  WITH n, r, seed,
       CASE WHEN any(w IN split(r.type, '_') WHERE any(t IN $terms WHERE w STARTS WITH t))
            THEN 1.0 ELSE $unmatched END AS match
  RETURN n AS e, 1 AS hops, seed.score * match AS w, COUNT { (n)<-[:ABOUT]-() } AS degree
}
WITH e, hops, w, degree WHERE degree <= $hub_max AND w > 0
WITH e, min(hops) AS hops, max(w) AS weight, max(degree) AS degree
WITH e, hops, weight, degree,
     weight * log(1.0 + toFloat($agent_facts) / CASE WHEN degree < 1 THEN 1 ELSE degree END)
       / log(1.0 + toFloat($agent_facts)) AS rank
ORDER BY rank DESC, e.key
LIMIT $max_entities
// best first while the ABOUT degree of the better entities stays under $budget: every fact
// read costs a vector read and a cosine, so a few entities of many facts use up the reading
WITH collect({e: e, hops: hops, weight: weight, degree: degree}) AS ranked
UNWIND range(0, size(ranked) - 1) AS i
WITH ranked[i] AS x, reduce(n = 0, y IN ranked[0..i] | n + y.degree) AS before
WHERE before < $budget
WITH x.e AS e, x.hops AS hops, x.weight AS weight, x.degree AS degree
CALL (e) {
  MATCH (f:Fact)-[:ABOUT]->(e)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE f.agent_id + '' = $agent_id AND NOT f.id IN [s IN $seeds | s.id]
    AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f LIMIT $scan
  // a fact with an English gloss: the better of its text's and its gloss's cosine, unless
  // $glosses is off (one projection: every fact read passes it)
  WITH f, coalesce(reduce(m = null, x IN [vector.similarity.cosine(f.embedding, $vector),
                                          vector.similarity.cosine(CASE WHEN $glosses THEN f.gloss_embedding END, $vector)] |
         CASE WHEN m IS NULL OR x > m THEN x ELSE m END), 0.5) AS semantic
  ORDER BY semantic DESC, f.id
  LIMIT $per_entity
  RETURN f, semantic, vector.similarity.cosine(f.embedding, $vector) AS text_semantic,
         vector.similarity.cosine(CASE WHEN $glosses THEN f.gloss_embedding END, $vector) AS gloss_semantic
}
RETURN e.key AS key, hops, weight, degree,
       f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
          created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
          valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
          valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
          invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
          .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
          event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, semantic, text_semantic, gloss_semantic
ORDER BY weight DESC, key, semantic DESC, fact.id
