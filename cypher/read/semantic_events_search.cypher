// Conversation snippets through in-index filtered vector search (Cypher 25 SEARCH, Neo4j 2026.01+, event index built WITH [n.agent_id]): the agent's own top-$k events, whatever the number of other agents (the caller grows $k while too few pass the filters).
// params: $agent_id string, $vector list<float>, $k int, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: fetched int (this agent's hits), floor float (lowest hit score), rows list<{event map, score float}> (superseded bool: every fact extracted from the event is closed as of $as_of; times as integer microseconds since the epoch: cheap to decode)
CYPHER 25
MATCH (node:Event)
  SEARCH node IN (VECTOR INDEX event_embedding FOR $vector WHERE node.agent_id = $agent_id LIMIT $k)
  SCORE AS score
WITH count(node) AS fetched, min(score) AS floor, collect({v: node, score: score}) AS hits
CALL (hits) {
  UNWIND hits AS h
  WITH h.v AS v, h.score AS score
  WHERE score >= $min_score AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
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
