// Deliveries a sender may start now, oldest first: due ones (each lane's head), and attempts whose lease ran out (their sender died). Index-backed: webhook_delivery_due.
// params: $now datetime, $limit int
// returns: id string
CALL () {
  MATCH (d:WebhookDelivery) WHERE d.status = 'pending' AND d.next_at <= $now RETURN d
  UNION
  MATCH (d:WebhookDelivery) WHERE d.status = 'leased' AND d.next_at <= $now RETURN d
}
WITH d ORDER BY d.next_at, d.seq LIMIT $limit
RETURN d.id AS id
ORDER BY id
