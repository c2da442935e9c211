// A failed attempt (not the last): the delivery stays its lane's head and is due again at $next_at.
// params: $id string, $token int, $code int|null, $error string|null, $next_at datetime
// returns: id string — no row when the attempt lost its lease
MATCH (d:WebhookDelivery {id: $id})
WHERE d.status = 'leased' AND d.lease_token = $token
SET d.status = 'pending', d.next_at = $next_at, d.last_code = $code, d.last_error = $error,
    d.lease_owner = null
RETURN d.id AS id
