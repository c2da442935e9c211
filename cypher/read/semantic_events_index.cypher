// Conversation snippets through the global event vector index: top-$k of ALL agents, then this agent's events (caller grows $k).
// params: $agent_id string, $vector list<float>, $k int, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: fetched int, floor float, rows list<{event map, score float}> (superseded bool: every fact extracted from the event is closed as of $as_of; times as integer microseconds since the epoch: cheap to decode)
CALL db.index.vector.queryNodes('event_embedding', $k, $vector) YIELD node, score
// Only this agent's hits are kept (a global top-k of tens of thousands stays out of memory).
WITH count(node) AS fetched, min(score) AS floor,
     collect(CASE WHEN node.agent_id = $agent_id THEN {v: node, score: score} END) AS hits
CALL {
  WITH hits
  UNWIND hits AS h
  WITH h.v AS v, h.score AS score
  WHERE v.agent_id = $agent_id AND score >= $min_score AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
  WITH v, score
  ORDER BY score DESC, v.id
  LIMIT $limit
  // superseded: every fact extracted from the turn (FROM_EVENT) that was known at $as_of is
  // closed by then (valid_to / invalidated_at: updated or retracted), and there is one
  WITH v, score, [(f)-[:FROM_EVENT]->(v) WHERE $as_of IS NULL OR f.created_at <= $as_of |
      CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
        ELSE coalesce(f.valid_to > $as_of, true) AND coalesce(f.invalidated_at > $as_of, true) END] AS open
  RETURN collect({event: v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond,
                  superseded: size(open) > 0 AND none(o IN open WHERE o)}, score: score}) AS rows
}
RETURN fetched, floor, rows
