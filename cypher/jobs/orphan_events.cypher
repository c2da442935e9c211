// Orphan sweep: events logged at least $older_ms ago whose extraction never committed
// (:PendingExtraction, kept small by the label) and that the sweep has not queued before.
// params: $older_ms int, $limit int, $agent_id string or null (one agent only)
// returns: id string, agent_id string
MATCH (ev:PendingExtraction)
WHERE ev.ingested_at < datetime() - duration({milliseconds: $older_ms})
  AND ev.orphan_swept_at IS NULL AND ev.agent_id IS NOT NULL
  AND ($agent_id IS NULL OR ev.agent_id = $agent_id)
RETURN ev.id AS id, ev.agent_id AS agent_id
ORDER BY ev.ingested_at
LIMIT $limit
