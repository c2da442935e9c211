// Semantic signal, exact: cosine over every visible fact of the agent (agent_id range index, pinned by a hint, and the as-of test as one CASE: an OR here lets the planner, by the statistics of the day, split the scan into a union over the valid_to index, and the work then changes from run to run); used for agents small enough that a scan beats index over-fetch. The agent's glossed facts (the fact_gloss index holds only those: nothing to read for an agent without glosses) come again, each scored by the better of its text's and its English gloss's cosine.
// params: $agent_id string, $vector list<float>, $min_score float (index scale (1+cos)/2), $min_confidence float, $as_of datetime|null, $limit int
// returns: fact map, score float (index scale (1+cos)/2; a glossed fact's row: the better of its two cosines), text_score float|null and gloss_score float|null (a glossed fact's row: each vector's cosine; null on a row of the text's vector); the best $limit by text and the best $limit glossed facts, so a glossed fact may come twice (search.vector_rows keeps its glossed row) (times as integer microseconds since the epoch: cheap to decode)
CALL {
  MATCH (f:Fact {agent_id: $agent_id})
  USING INDEX f:Fact(agent_id)
  WHERE f.embedding IS NOT NULL AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
      ELSE f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of) END
  WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
  WHERE score >= $min_score
  RETURN f, score, null AS text_score, null AS gloss_score
  ORDER BY score DESC, f.id
  LIMIT $limit
  UNION ALL
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
  WHERE score >= $min_score
  RETURN f, score, t AS text_score, g AS gloss_score
  ORDER BY score DESC, f.id
  LIMIT $limit
}
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, score, text_score, gloss_score
ORDER BY score DESC, fact.id
