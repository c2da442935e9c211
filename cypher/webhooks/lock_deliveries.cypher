// Write-lock deliveries (in id order) before webhooks/lease re-checks them in the same transaction, so two senders never start the same attempt.
// params: $ids list<string> (sorted)
// returns: id string
UNWIND $ids AS id
MATCH (d:WebhookDelivery {id: id})
SET d.locked_at = datetime()
RETURN d.id AS id
