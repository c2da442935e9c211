// Create (or find) and write-lock the lanes new deliveries go into, in key order: a lane (one webhook, one agent) sends its deliveries one at a time, in order. Run before webhooks/create_deliveries in the dispatch transaction.
// params: $lanes list<map {key, webhook_id, agent_id}> (sorted by key), $now datetime
// returns: key string
UNWIND $lanes AS lane
MERGE (l:WebhookLane {key: lane.key})
ON CREATE SET l.webhook_id = lane.webhook_id, l.agent_id = lane.agent_id
SET l.touched_at = $now
RETURN lane.key AS key
