// End a delivery for good — delivered, or dead after its last attempt — if this sender's attempt still holds it (same token); the lane is locked first, so webhooks/ensure_head makes the next one due in the same transaction.
// params: $id string, $token int, $status string ('delivered' | 'dead'), $code int|null (the answer's HTTP status), $error string|null, $now datetime
// returns: lane string — no row when the attempt lost its lease
MATCH (d:WebhookDelivery {id: $id})
WHERE d.status = 'leased' AND d.lease_token = $token
MATCH (l:WebhookLane {key: d.lane})
SET l.touched_at = $now,
    d.status = $status, d.last_code = $code, d.last_error = $error, d.lease_owner = null,
    d.next_at = null, d.finished_at = $now,
    d.delivered_at = CASE WHEN $status = 'delivered' THEN $now END
RETURN d.lane AS lane
