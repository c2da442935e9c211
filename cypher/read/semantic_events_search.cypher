// Conversation snippets through in-index filtered vector search (Cypher 25 SEARCH, Neo4j 2026.01+, event index built WITH [n.agent_id]): the agent's own top-$k events, whatever the number of other agents (the caller grows $k while too few pass the filters).
// params: $agent_id string, $vector list<float>, $k int, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: fetched int (this agent's hits), floor float (lowest hit score), rows list<{event map, score float}> (times as integer microseconds since the epoch: cheap to decode)
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
  RETURN collect({event: v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond}, score: score}) AS rows
}
RETURN fetched, floor, rows
