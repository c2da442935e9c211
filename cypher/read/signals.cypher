// Every retrieval signal in ONE statement (one round trip instead of eight): semantic facts (first index over-fetch round, or the exact scan), keyword facts (first full-text round), the hop-decayed traversal from the planner's entities (the graph signal), aggregation by entity type, semantic and keyword events, observations, and the planner's 1-hop expansion. Each part is a CALL {} subquery switched off by its parameters (an empty UNWIND); the caller re-runs a part alone (read/semantic_*, read/keyword_*) when its first round was not enough. The traversal's hop bound is fixed in the file and cut by $max_hops. Spreading activation from the best facts is a statement of its own (traversal/spreading_activation).
// params: $agent_id string, $as_of datetime|null, $vector list<float>, $min_confidence float, $now datetime, $half_life_days float, $sem_index bool, $sem_k int, $sem_min_score float (index scale), $sem_limit int, $glosses bool (the semantic part through the agent's English glosses), $q string (escaped Lucene, "" = off), $kw_k int, $kw_limit int, $seeds list<{key string, named bool}> (a key '' matches nothing), $max_entities int, $max_hops int, $hop_decay float, $query_bonus float, $graph_pool int, $graph_budget int, $graph_scan int, $graph_limit int, $types list<string> ([''] = off), $agg_pool int, $agg_limit int, $events bool, $ev_q string (escaped Lucene, "" = off), $ev_index bool, $ev_k int, $ev_min_score float, $ev_limit int, $ev_kw_k int, $ev_kw_limit int, $obs bool, $obs_min_score float, $obs_limit int, $named list<string> ('' matches nothing), $expand_limit int, $relation_terms list<string> (the question's relation stems, padded with a never-matching "\u0000")
// returns: facts list<fact map> (each distinct fact once; times as integer microseconds since the epoch), hits list<{signal string, id string, score float, semantic float (index scale), hops int|null, text_score float|null, gloss_score float|null (signal 'gloss': each of the glossed fact's cosines; its score the better)}>, sem_fetched int, sem_floor float|null, kw_fetched int, events list<event map> (superseded bool: every fact extracted from the turn is closed as of $as_of), event_hits list<{signal, id, score, semantic}>, ev_fetched int, ev_floor float|null, ev_kw_fetched int, observations list<{id, text, kind, score}>, neighbours list<{key, name, type, strength}>, relation_answers list<string> (ids of the facts that evidence a named entity's relationship whose type has a word starting with a relation term)
CALL {
  UNWIND CASE WHEN $sem_index THEN [1] ELSE [] END AS go
  CALL db.index.vector.queryNodes('fact_embedding', $sem_k, $vector) YIELD node, score
  WITH count(node) AS fetched, min(score) AS floor,
       collect(CASE WHEN node.agent_id = $agent_id AND score >= $sem_min_score THEN {f: node, score: score} END) AS hits
  CALL {
    WITH hits
    UNWIND hits AS h
    WITH h.f AS f, h.score AS score
    WHERE coalesce(f.confidence, 0.0) >= $min_confidence
      AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
    WITH f, score ORDER BY score DESC, f.id LIMIT $sem_limit
    RETURN collect({f: f, score: score}) AS rows
  }
  RETURN fetched AS sem_fetched, floor AS sem_floor, rows AS sem_index_rows
}
CALL {
  UNWIND CASE WHEN $sem_index THEN [] ELSE [1] END AS go
  MATCH (f:Fact {agent_id: $agent_id})
  USING INDEX f:Fact(agent_id)
  WHERE f.embedding IS NOT NULL AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
      ELSE f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of) END
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  WHERE score >= $sem_min_score
  WITH f, score ORDER BY score DESC, f.id LIMIT $sem_limit
  RETURN collect({f: f, score: score}) AS sem_exact_rows
}
CALL {
  // semantic facts through their English glosses (as read/semantic_glosses_exact): the agent's
  // glossed facts (the fact_gloss index holds only those), each at the better of its text's
  // and its gloss's cosine
  UNWIND CASE WHEN $glosses THEN [1] ELSE [] END AS go
  MATCH (f:Fact {agent_id: $agent_id})
  USING INDEX f:Fact(agent_id, gloss_language)
  WHERE f.gloss_language IS NOT NULL AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
      ELSE f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of) END
  WITH f, vector.similarity.cosine(f.gloss_embedding, $vector) AS g,
       vector.similarity.cosine(f.embedding, $vector) AS t
  WITH f, CASE WHEN t IS NULL OR g > t THEN g ELSE t END AS score, t, g
  WHERE score >= $sem_min_score
  WITH f, score, t, g ORDER BY score DESC, f.id LIMIT $sem_limit
  RETURN collect({f: f, score: score, text_score: t, gloss_score: g}) AS gloss_rows
}
WITH sem_fetched, sem_floor, gloss_rows,
     CASE WHEN $sem_index THEN sem_index_rows ELSE sem_exact_rows END AS sem_rows
CALL {
  UNWIND CASE WHEN $q <> '' THEN [1] ELSE [] END AS go
  CALL db.index.fulltext.queryNodes('fact_text', $q, {limit: $kw_k}) YIELD node, score
  WITH count(node) AS fetched,
       collect(CASE WHEN node.agent_id = $agent_id THEN {f: node, score: score} END) AS hits
  CALL {
    WITH hits
    UNWIND hits AS h
    WITH h.f AS f, h.score AS score
    WHERE coalesce(f.confidence, 0.0) >= $min_confidence
      AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
    WITH f, score ORDER BY score DESC, f.id LIMIT $kw_limit
    RETURN collect({f: f, score: score, semantic: coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5)}) AS rows
  }
  RETURN fetched AS kw_fetched, rows AS kw_rows
}
CALL {
  // hop-decayed traversal (the graph signal): BFS up to 2 hops (fixed bound *0..2, cut by
  // $max_hops) from the planner's entities over visible RELATES_TO edges, then their visible
  // facts through ABOUT; proximity = strength x edge recency (floored at 0.5) x query bonus
  // (a named entity) x hop decay ($hop_decay at hop 2); the caller multiplies it by the
  // fact's own recency
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
  // closest first while the ABOUT degree of the strictly closer entities stays under
  // $graph_budget (entities of one proximity are read together), at most $graph_scan visible
  // facts of each (a hub's bound), the newest $graph_pool of those
  ORDER BY proximity DESC, e.key
  LIMIT $max_entities
  WITH collect({e: e, hops: hops, proximity: proximity, degree: COUNT { (e)<-[:ABOUT]-() }}) AS ranked
  UNWIND range(0, size(ranked) - 1) AS i
  WITH ranked[i] AS x,
       reduce(n = 0, y IN ranked[0..i] | n + CASE WHEN y.proximity > ranked[i].proximity THEN y.degree ELSE 0 END) AS closer
  WHERE closer < $graph_budget
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
    WITH f LIMIT $graph_scan
    WITH f ORDER BY f.created_at DESC, f.id LIMIT $graph_pool
    RETURN f
  }
  WITH f, min(hops) AS hops, max(proximity) AS proximity
  ORDER BY proximity DESC, f.created_at DESC, f.id
  LIMIT $graph_pool
  WITH f, hops, proximity, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
  ORDER BY proximity DESC, semantic DESC, f.id
  LIMIT $graph_limit
  RETURN collect({f: f, score: proximity, semantic: semantic, hops: hops}) AS graph_rows
}
CALL {
  // aggregation by entity type
  UNWIND CASE WHEN any(t IN $types WHERE t <> '') THEN [1] ELSE [] END AS go
  MATCH (e:Entity {agent_id: $agent_id})
  WHERE e.type IN $types AND e.merged_into IS NULL
  MATCH (f:Fact)-[:ABOUT]->(e)
  // f's agent in a form no index answers: the plan expands from the entity, never reads every
  // fact of the agent to check its ABOUT link (planned so on statistics of other data)
  WHERE f.agent_id + '' = $agent_id AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND f.created_at <= $as_of
          AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
          AND coalesce(f.valid_from, f.created_at) <= $as_of
          AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f, count(DISTINCT e) AS entities
  ORDER BY entities DESC, coalesce(f.importance, 0.5) DESC, f.created_at DESC, f.id
  LIMIT $agg_pool
  WITH f, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
  ORDER BY semantic DESC, f.id
  LIMIT $agg_limit
  RETURN collect({f: f, score: 1.0, semantic: semantic}) AS agg_rows
}
CALL {
  // each distinct fact projected once; the signals refer to it by id
  WITH sem_rows, gloss_rows, kw_rows, graph_rows, agg_rows
  WITH [r IN sem_rows | r {.f, .score, signal: 'semantic', semantic: r.score}]
       + [r IN gloss_rows | r {.f, .score, .text_score, .gloss_score, signal: 'gloss', semantic: r.score}]
       + [r IN kw_rows | r {.f, .score, .semantic, signal: 'keyword'}]
       + [r IN graph_rows | r {.f, .score, .semantic, .hops, signal: 'graph'}]
       + [r IN agg_rows | r {.f, .score, .semantic, signal: 'pattern'}] AS all
  CALL {
    WITH all
    UNWIND all AS r
    WITH DISTINCT r.f AS f
    RETURN collect(f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
           created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
           valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
           valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
           invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
           .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
           event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]}) AS facts
  }
  RETURN facts, [r IN all | {signal: r.signal, id: r.f.id, score: r.score, semantic: r.semantic, hops: r.hops, text_score: r.text_score, gloss_score: r.gloss_score}] AS hits
}
CALL {
  UNWIND CASE WHEN $events AND $ev_index THEN [1] ELSE [] END AS go
  CALL db.index.vector.queryNodes('event_embedding', $ev_k, $vector) YIELD node, score
  WITH count(node) AS fetched, min(score) AS floor,
       collect(CASE WHEN node.agent_id = $agent_id AND score >= $ev_min_score THEN {v: node, score: score} END) AS hits
  CALL {
    WITH hits
    UNWIND hits AS h
    WITH h.v AS v, h.score AS score
    WHERE $as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of
    WITH v, score ORDER BY score DESC, v.id LIMIT $ev_limit
    RETURN collect({v: v, score: score}) AS rows
  }
  RETURN fetched AS ev_fetched, floor AS ev_floor, rows AS ev_index_rows
}
CALL {
  UNWIND CASE WHEN $events AND NOT $ev_index THEN [1] ELSE [] END AS go
  MATCH (v:Event {agent_id: $agent_id})
  WHERE v.embedding IS NOT NULL AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
  WITH v, vector.similarity.cosine(v.embedding, $vector) AS score
  WHERE score >= $ev_min_score
  WITH v, score ORDER BY score DESC, v.id LIMIT $ev_limit
  RETURN collect({v: v, score: score}) AS ev_exact_rows
}
CALL {
  UNWIND CASE WHEN $events AND $ev_q <> '' THEN [1] ELSE [] END AS go
  CALL db.index.fulltext.queryNodes('event_text', $ev_q, {limit: $ev_kw_k}) YIELD node, score
  WITH count(node) AS fetched,
       collect(CASE WHEN node.agent_id = $agent_id THEN {v: node, score: score} END) AS hits
  CALL {
    WITH hits
    UNWIND hits AS h
    WITH h.v AS v, h.score AS score
    WHERE $as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of
    WITH v, score ORDER BY score DESC, v.id LIMIT $ev_kw_limit
    RETURN collect({v: v, score: score, semantic: coalesce(vector.similarity.cosine(v.embedding, $vector), 0.5)}) AS rows
  }
  RETURN fetched AS ev_kw_fetched, rows AS ev_kw_rows
}
CALL {
  WITH ev_index_rows, ev_exact_rows, ev_kw_rows
  WITH [r IN CASE WHEN $ev_index THEN ev_index_rows ELSE ev_exact_rows END | r {.v, .score, semantic: r.score, signal: 'semantic'}]
       + [r IN ev_kw_rows | r {.v, .score, .semantic, signal: 'keyword'}] AS all
  CALL {
    WITH all
    UNWIND all AS r
    WITH DISTINCT r.v AS v
    // superseded: every fact extracted from the turn (FROM_EVENT) that was known at $as_of is
    // closed by then (valid_to / invalidated_at: updated or retracted), and there is one
    WITH v, [(f)-[:FROM_EVENT]->(v) WHERE $as_of IS NULL OR f.created_at <= $as_of |
             CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
               ELSE coalesce(f.valid_to > $as_of, true) AND coalesce(f.invalidated_at > $as_of, true) END] AS open
    RETURN collect(v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond,
           superseded: size(open) > 0 AND none(o IN open WHERE o)}) AS events
  }
  RETURN events, [r IN all | {signal: r.signal, id: r.v.id, score: r.score, semantic: r.semantic}] AS event_hits
}
CALL {
  UNWIND CASE WHEN $obs THEN [1] ELSE [] END AS go
  MATCH (o:Observation {agent_id: $agent_id})
  WHERE o.embedding IS NOT NULL AND ($as_of IS NULL OR o.created_at <= $as_of)
  WITH o, vector.similarity.cosine(o.embedding, $vector) AS score
  WHERE score >= $obs_min_score
  WITH o, score ORDER BY score DESC, o.id LIMIT $obs_limit
  RETURN collect({id: o.id, text: o.text, kind: o.kind, score: score}) AS observations
}
CALL {
  // the planner's 1-hop expansion (as read/entity_neighbours)
  UNWIND $named AS k
  MATCH (s:Entity {agent_id: $agent_id, key: k})-[r:RELATES_TO]-(n:Entity)
  // n's agent in a form no index answers: the plan expands from s, never joins s with every
  // entity of the agent (chosen by the planner where other agents' graphs are dense)
  WHERE n.agent_id + '' = $agent_id AND n.merged_into IS NULL
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
          AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
          AND coalesce(r.valid_from, r.created_at) <= $as_of
          AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  WITH n.key AS key, n.name AS name, n.type AS type, max(coalesce(r.strength, 0.8)) AS strength
  ORDER BY strength DESC, key
  LIMIT $expand_limit
  RETURN collect({key: key, name: name, type: type, strength: strength}) AS neighbours
}
CALL {
  // relation answers: the evidence of the named entities' relationships the question asks for
  UNWIND $seeds AS seed
  MATCH (e:Entity {agent_id: $agent_id, key: seed.key})-[r:RELATES_TO]->(:Entity)
  WHERE seed.named AND r.evidence_fact_id IS NOT NULL
    AND any(w IN split(r.type, '_') WHERE any(t IN $relation_terms WHERE w STARTS WITH t))
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
          AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
          AND coalesce(r.valid_from, r.created_at) <= $as_of
          AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN collect(DISTINCT r.evidence_fact_id) AS relation_answers
}
RETURN facts, hits, sem_fetched, sem_floor, kw_fetched, events, event_hits, ev_fetched, ev_floor,
       ev_kw_fetched, observations, neighbours, relation_answers
