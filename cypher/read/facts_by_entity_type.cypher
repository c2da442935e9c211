// Aggregation signal ("who are my friends"): visible facts linked through ABOUT to the agent's entities of the given types, most query-similar first.
// params: $agent_id string, $types list<string>, $vector list<float>, $min_confidence float, $as_of datetime|null, $pool int, $limit int
// returns: fact map, semantic float (index scale), entities int (how many such entities the fact mentions) (times as integer microseconds since the epoch: cheap to decode)
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
// Bound the cosine work: the $pool most important facts, then by similarity.
ORDER BY entities DESC, coalesce(f.importance, 0.5) DESC, f.created_at DESC, f.id
LIMIT $pool
WITH f, entities, coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5) AS semantic
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]} AS fact, semantic, entities
ORDER BY semantic DESC, fact.id
LIMIT $limit
