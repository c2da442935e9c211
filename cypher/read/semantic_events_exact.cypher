// Conversation snippets, exact: cosine over every event of the agent (agent_id index), for agents small enough to scan.
// params: $agent_id string, $vector list<float>, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: event map, score float (index scale) (times as integer microseconds since the epoch: cheap to decode)
MATCH (v:Event {agent_id: $agent_id})
WHERE v.embedding IS NOT NULL AND ($as_of IS NULL OR coalesce(v.occurred_at, v.ingested_at) <= $as_of)
WITH v, vector.similarity.cosine(v.embedding, $vector) AS score
WHERE score >= $min_score
RETURN v {.id, .text, .speaker, occurred_at: v.occurred_at.epochSeconds * 1000000 + v.occurred_at.microsecond} AS event, score
ORDER BY score DESC, event.id
LIMIT $limit
