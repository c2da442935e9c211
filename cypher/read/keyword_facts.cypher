// Keyword signal: full-text (BM25) over Fact.text, top-$k of ALL agents, then this agent's visible facts with their cosine to the query (the caller grows $k until enough rows, exhaustion or a cap).
// params: $agent_id string, $q string (escaped Lucene query), $k int, $vector list<float>, $min_confidence float, $as_of datetime|null, $limit int
// returns: fetched int (global hits), rows list<{fact map, score float (raw BM25), semantic float (index scale)}> (times as integer microseconds since the epoch: cheap to decode)
CALL db.index.fulltext.queryNodes('fact_text', $q, {limit: $k}) YIELD node, score
// Only this agent's hits are kept (a global top-k of tens of thousands stays out of memory).
WITH count(node) AS fetched,
     collect(CASE WHEN node.agent_id = $agent_id THEN {f: node, score: score} END) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.f AS f, h.score AS score
  WHERE f.agent_id = $agent_id AND coalesce(f.confidence, 0.0) >= $min_confidence
    AND (($as_of IS NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL)
    OR ($as_of IS NOT NULL AND f.created_at <= $as_of
        AND (f.invalidated_at IS NULL OR f.invalidated_at > $as_of)
        AND coalesce(f.valid_from, f.created_at) <= $as_of
        AND (f.valid_to IS NULL OR f.valid_to > $as_of)))
  WITH f, score
  ORDER BY score DESC, f.id
  LIMIT $limit
  RETURN collect({fact: f {.id, .text, .subject_key, .kind, .confidence, .importance, .reinforcement_count, .language,
         created_at: f.created_at.epochSeconds * 1000000 + f.created_at.microsecond,
         valid_from: f.valid_from.epochSeconds * 1000000 + f.valid_from.microsecond,
         valid_to: f.valid_to.epochSeconds * 1000000 + f.valid_to.microsecond,
         invalidated_at: f.invalidated_at.epochSeconds * 1000000 + f.invalidated_at.microsecond,
         .temporal_class, valid_until: f.valid_until.epochSeconds * 1000000 + f.valid_until.microsecond,
         event_ids: [(f)-[:FROM_EVENT]->(ev:Event) | ev.id]}, score: score,
                  semantic: coalesce(vector.similarity.cosine(f.embedding, $vector), 0.5)}) AS rows
}
RETURN fetched, rows
