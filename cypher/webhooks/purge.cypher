// Delete up to $batch delivered or dead deliveries that finished before $cutoff (retention). Index-backed: webhook_delivery_finished.
// params: $cutoff datetime, $batch int
// returns: deleted int
CALL () {
  MATCH (d:WebhookDelivery) WHERE d.status = 'delivered' AND d.finished_at < $cutoff RETURN d
  UNION
  MATCH (d:WebhookDelivery) WHERE d.status = 'dead' AND d.finished_at < $cutoff RETURN d
}
WITH d LIMIT $batch
DETACH DELETE d
RETURN count(*) AS deleted
