// Events of an agent still waiting for their extraction (:PendingExtraction), oldest first.
// params: $agent_id string
// returns: id string, extracted_at datetime, swept_at datetime
MATCH (ev:PendingExtraction {agent_id: $agent_id})
RETURN ev.id AS id, ev.extracted_at AS extracted_at, ev.orphan_swept_at AS swept_at
ORDER BY ev.ingested_at, ev.id
