// Start an attempt of each locked delivery that is still due: leased to this sender until $lease_until (then another may retry it), attempt counted, fencing token bumped; with its webhook's URL and secret.
// params: $ids list<string>, $owner string, $now datetime, $lease_until datetime
// returns: delivery map (all properties but the lock), url string, secret string
UNWIND $ids AS id
MATCH (d:WebhookDelivery {id: id})
WHERE d.status IN ['pending', 'leased'] AND d.next_at <= $now
MATCH (w:Webhook {id: d.webhook_id})
SET d.status = 'leased', d.lease_owner = $owner, d.leased_at = $now, d.next_at = $lease_until,
    d.attempts = d.attempts + 1, d.lease_token = coalesce(d.lease_token, 0) + 1
RETURN d {.*, locked_at: null} AS delivery, w.url AS url, w.secret AS secret
