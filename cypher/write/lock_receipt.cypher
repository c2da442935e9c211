// Idempotency: create the receipt of (agent_id, key) if new (claimed by $token) and take its
// write lock for the rest of the transaction (write/claim_receipt then re-checks it).
// params: $agent_id string, $key string, $now datetime, $token string
// returns: key string
MERGE (w:WriteReceipt {agent_id: $agent_id, key: $key})
ON CREATE SET w.created_at = $now, w.token = $token
SET w._lock = true
REMOVE w._lock
RETURN w.key AS key
