// Give each lane a head: when no delivery of the lane is due or in flight, its oldest queued one becomes due now (after new deliveries were queued, or when the head finished). The lanes are locked by this transaction. Index-backed: webhook_delivery_lane.
// params: $lanes list<string> (lane keys), $now datetime
// returns: lane string, id string (the delivery made due) — a row only for lanes that got a new head
UNWIND $lanes AS lane
CALL (lane) {
  WITH lane WHERE NOT EXISTS {
    MATCH (p:WebhookDelivery {lane: lane}) WHERE p.status IN ['pending', 'leased']
  }
  MATCH (n:WebhookDelivery {lane: lane, status: 'queued'})
  WITH n ORDER BY n.seq LIMIT 1
  SET n.status = 'pending', n.next_at = $now
  RETURN n.id AS id
}
RETURN lane, id
