// Conversation snippets, exact: cosine over every event of the agent (agent_id index), for agents small enough to scan.
// params: $agent_id string, $vector list<float>, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: event map, score float (index scale) (superseded bool: every fact extracted from the event is closed as of $as_of; times as integer microseconds since the epoch: cheap to decode)
MATCH (v:Event {agent_id: $agent_id})
WHERE v.embedding IS NOT NULL AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
WITH v, vector.similarity.cosine(v.embedding, $vector) AS score
WHERE score >= $min_score
WITH v, score
ORDER BY score DESC, v.id
LIMIT $limit
// superseded: every fact extracted from the turn (FROM_EVENT) that was known at $as_of is
// closed by then (valid_to / invalidated_at: updated or retracted), and there is one
WITH v, score, [(f)-[:FROM_EVENT]->(v) WHERE $as_of IS NULL OR f.created_at <= $as_of |
  CASE WHEN $as_of IS NULL THEN f.valid_to IS NULL AND f.invalidated_at IS NULL
    ELSE coalesce(f.valid_to > $as_of, true) AND coalesce(f.invalidated_at > $as_of, true) END] AS open
RETURN v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond,
          superseded: size(open) > 0 AND none(o IN open WHERE o)} AS event, score
ORDER BY score DESC, event.id
