// Conversation snippets by full-text (BM25) over Event.text, top-$k of ALL agents, then this agent's events with their cosine to the query (caller grows $k).
// params: $agent_id string, $q string (escaped Lucene query), $k int, $vector list<float>, $as_of datetime|null, $limit int
// returns: fetched int, rows list<{event map, score float (raw BM25), semantic float (index scale)}> (superseded bool: every fact extracted from the event is closed as of $as_of; times as integer microseconds since the epoch: cheap to decode)
CALL db.index.fulltext.queryNodes('event_text', $q, {limit: $k}) YIELD node, score
// Only this agent's hits are kept (a global top-k of tens of thousands stays out of memory).
WITH count(node) AS fetched,
     collect(CASE WHEN node.agent_id = $agent_id THEN {v: node, score: score} END) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.v AS v, h.score AS score
  WHERE v.agent_id = $agent_id AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
  WITH v, score
  ORDER BY score DESC, v.id
  LIMIT $limit
  // superseded: every fact extracted from the turn (FROM_EVENT) that was known at $as_of is
  // closed by then (valid_to / invalidated_at: updated or retracted), and there is one
  WITH v, score, [(f)-[:FROM_EVENT]->(v) WHERE $as_of IS NULL OR f.created_at <= $as_of |
      CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
        ELSE coalesce(f.valid_to > $as_of, true) AND coalesce(f.invalidated_at > $as_of, true) END] AS open
  RETURN collect({event: v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond,
                  superseded: size(open) > 0 AND none(o IN open WHERE o)}, score: score,
                  semantic: coalesce(vector.similarity.cosine(v.embedding, $vector), 0.5)}) AS rows
}
RETURN fetched, rows
