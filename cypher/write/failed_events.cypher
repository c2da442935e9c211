// Stored messages of an agent whose extraction failed and has not succeeded since, newest first.
// params: $agent_id string, $event_ids list<string> or null (only these), $limit int
// returns: id string, speaker string, text string, occurred_at datetime, error string,
//          failed_at datetime
MATCH (ev:Event {agent_id: $agent_id})
WHERE ev:PendingExtraction AND ev.extraction_error IS NOT NULL
  AND ($event_ids IS NULL OR ev.id IN $event_ids)
RETURN ev.id AS id, ev.speaker AS speaker, ev.text AS text, ev.occurred_at AS occurred_at,
       ev.extraction_error AS error, ev.extraction_failed_at AS failed_at
ORDER BY ev.extraction_failed_at DESC, ev.id
LIMIT $limit
