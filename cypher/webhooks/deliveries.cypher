// Deliveries, newest first, filtered by status, webhook and agent (null: any); the body's text is not returned.
// params: $statuses list<string>|null, $webhook_id string|null, $agent_id string|null, $limit int
// returns: delivery map {id, webhook_id, agent_id, tenant, type, status, attempts, max_attempts, next_at, last_code, last_error, created_at, delivered_at, finished_at, source_at, seq}
MATCH (d:WebhookDelivery)
WHERE ($statuses IS NULL OR d.status IN $statuses)
  AND ($webhook_id IS NULL OR d.webhook_id = $webhook_id)
  AND ($agent_id IS NULL OR d.agent_id = $agent_id)
WITH d ORDER BY d.created_at DESC, d.seq DESC LIMIT $limit
RETURN d {.id, .webhook_id, .agent_id, .tenant, .type, .status, .attempts, .max_attempts,
          .next_at, .last_code, .last_error, .created_at, .delivered_at, .finished_at,
          .source_at, .seq} AS delivery
