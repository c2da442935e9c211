// Semantic signal through the English glosses, exact: the agent's visible glossed facts (the fact_gloss index holds only those: nothing to read for an agent without glosses), each scored by the better of its text's and its gloss's cosine; beside read/semantic_facts_index or _search, whose index holds the text vectors only (read/semantic_facts_exact scans the glosses itself).
// params: $agent_id string, $vector list<float>, $min_score float (index scale (1+cos)/2), $min_confidence float, $as_of datetime|null, $limit int
// returns: fact map, score float (index scale (1+cos)/2: the better of its two cosines), text_score float|null, gloss_score float|null (each vector's cosine) (times as integer microseconds since the epoch: cheap to decode)
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
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, score, t AS text_score, g AS gloss_score
ORDER BY score DESC, fact.id
LIMIT $limit
