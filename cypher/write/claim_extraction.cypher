// Mark the event extracted (once): facts of one message are committed by one extraction only,
// params: $agent_id string, $event_id string, $now datetime
// returns: id string, already bool (true: another extraction committed first; nothing set)
// whoever runs it (the synchronous call, its retry, an extract job or the orphan sweep).
// Run after write/lock_event in the same transaction.
MATCH (ev:Event {id: $event_id, agent_id: $agent_id})
WITH ev, ev.extracted_at IS NOT NULL AS already
FOREACH (_ IN CASE WHEN already THEN [] ELSE [1] END |
  SET ev.extracted_at = $now
  REMOVE ev:PendingExtraction, ev.extraction_error, ev.extraction_failed_at)
RETURN ev.id AS id, already
