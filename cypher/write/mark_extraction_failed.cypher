// Record on a stored message that its extraction failed (it stays :PendingExtraction).
// params: $agent_id string, $event_id string, $error string, $now datetime
// returns: id string
MATCH (ev:Event {id: $event_id, agent_id: $agent_id})
WHERE ev.extracted_at IS NULL
SET ev.extraction_error = $error, ev.extraction_failed_at = $now
RETURN ev.id AS id
