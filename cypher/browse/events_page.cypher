// One page of an agent's events (messages), newest first, keyset-paginated by (occurred_at, id).
// params: $agent_id string, $thread_id string|null, $since datetime|null, $until datetime|null, $after_at datetime|null, $after_id string|null, $limit int
// returns: event map (no embedding)
MATCH (ev:Event {agent_id: $agent_id})
WHERE ($thread_id IS NULL OR ev.thread_id = $thread_id)
  AND ($since IS NULL OR ev.occurred_at >= $since)
  AND ($until IS NULL OR ev.occurred_at < $until)
  AND ($after_at IS NULL OR ev.occurred_at < $after_at
       OR (ev.occurred_at = $after_at AND ev.id > $after_id))
RETURN ev {.id, .text, .speaker, .occurred_at, .ingested_at, .thread_id, .source, .emotion,
           .intensity, .energy} AS event
ORDER BY ev.occurred_at DESC, ev.id
LIMIT $limit
