// Semantic signal through in-index filtered vector search (Cypher 25 SEARCH, Neo4j 2026.01+, index built WITH [n.agent_id]): the agent's own top-$k, whatever the number of other agents; visibility is checked afterwards (the caller grows $k while hidden facts crowd the page).
// params: $agent_id string, $vector list<float>, $k int, $min_score float (index scale), $min_confidence float, $as_of datetime|null, $limit int
// returns: fetched int (this agent's hits), floor float (lowest hit score), rows list<{fact map, score float}> (times as integer microseconds since the epoch: cheap to decode)
CYPHER 25
MATCH (node:Fact)
  SEARCH node IN (VECTOR INDEX fact_embedding FOR $vector WHERE node.agent_id = $agent_id LIMIT $k)
  SCORE AS score
WITH count(node) AS fetched, min(score) AS floor, collect({f: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.f AS f, h.score AS score
  WHERE score >= $min_score
    AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
      ELSE f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of) END
  WITH f, score
  ORDER BY score DESC, f.id
  LIMIT $limit
  RETURN collect({fact: f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]}, score: score}) AS rows
}
RETURN fetched, floor, rows
