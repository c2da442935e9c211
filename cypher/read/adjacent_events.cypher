// Conversation context: for each seed snippet, the $per_side turns just before and just after it in the same thread (same agent, within $window_s seconds), through the (agent_id, occurred_at) range index.
// params: $agent_id string, $seeds list<{id string, score float}>, $per_side int, $window_s int, $as_of datetime|null
// returns: event map (times as integer microseconds since the epoch), seed string, score float (the seed's), side int (-1 before, 1 after)
UNWIND $seeds AS seed
MATCH (v:Event {id: seed.id})
WHERE v.agent_id = $agent_id AND v.occurred_at IS NOT NULL
CALL {
  WITH v
  MATCH (n:Event)
  WHERE n.agent_id = $agent_id AND n.occurred_at > v.occurred_at
    AND n.occurred_at <= v.occurred_at + duration({seconds: $window_s})
    AND coalesce(n.thread_id, '') = coalesce(v.thread_id, '')
    AND ($as_of IS NULL OR n.occurred_at <= $as_of)
  WITH n ORDER BY n.occurred_at ASC LIMIT $per_side
  RETURN n, 1 AS side
  UNION
  WITH v
  MATCH (n:Event)
  WHERE n.agent_id = $agent_id AND n.occurred_at < v.occurred_at
    AND n.occurred_at >= v.occurred_at - duration({seconds: $window_s})
    AND coalesce(n.thread_id, '') = coalesce(v.thread_id, '')
    AND ($as_of IS NULL OR n.occurred_at <= $as_of)
  WITH n ORDER BY n.occurred_at DESC LIMIT $per_side
  RETURN n, -1 AS side
}
RETURN n {.id, .text, .speaker, occurred_at: n.occurred_at.epochSeconds * 1000000 + n.occurred_at.microsecond} AS event,
       seed.id AS seed, seed.score AS score, side
