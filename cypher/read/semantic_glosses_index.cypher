// Semantic signal through the English glosses' vector index (schema/vector_fact_gloss): top-$k of ALL agents' gloss vectors, then this agent's visible facts, each scored by the better of its text's and its gloss's cosine (the caller grows $k until enough rows or a cap); for an agent with more glosses than the exact scan takes.
// params: $agent_id string, $vector list<float>, $k int, $min_score float (index scale), $min_confidence float, $as_of datetime|null, $limit int
// returns: fetched int (global hits), floor float (lowest global gloss score), rows list<{fact map, score float (the better of its two cosines), text_score float|null, gloss_score float|null (each vector's cosine)}> (times as integer microseconds since the epoch: cheap to decode)
CALL db.index.vector.queryNodes('fact_gloss_embedding', $k, $vector) YIELD node, score
// Only this agent's hits are kept (a global top-k of tens of thousands stays out of memory).
WITH count(node) AS fetched, min(score) AS floor,
     collect(CASE WHEN node.agent_id = $agent_id THEN {f: node, score: score} END) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.f AS f, h.score AS g
  WHERE f.agent_id = $agent_id
    AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
    OR ($as_of IS NOT NULL AND f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f, g, vector.similarity.cosine(f.embedding, $vector) AS t
  WITH f, CASE WHEN t IS NULL OR g > t THEN g ELSE t END AS score, t, g
  WHERE score >= $min_score
  WITH f, score, t, g
  ORDER BY score DESC, f.id
  LIMIT $limit
  RETURN collect({fact: f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]}, score: score, text_score: t, gloss_score: g}) AS rows
}
RETURN fetched, floor, rows
