// Remove a webhook with its deliveries (queued ones are never sent) and its lanes.
// params: $id string
// returns: id string, deliveries int (deleted) — no row when there is no such webhook
MATCH (w:Webhook {id: $id})
CALL (w) {
  OPTIONAL MATCH (d:WebhookDelivery {webhook_id: w.id})
  DETACH DELETE d
  RETURN count(d) AS deliveries
}
CALL (w) {
  OPTIONAL MATCH (l:WebhookLane {webhook_id: w.id})
  DETACH DELETE l
  RETURN count(l) AS lanes
}
DETACH DELETE w
RETURN $id AS id, deliveries
