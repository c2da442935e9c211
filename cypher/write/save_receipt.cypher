// Idempotency: store the final WriteResult (JSON) on the claimed receipt.
// params: $agent_id string, $key string, $result string, $now datetime
// returns: key string
MERGE (w:WriteReceipt {agent_id: $agent_id, key: $key})
ON CREATE SET w.created_at = $now
SET w.result = $result, w.completed_at = $now
RETURN w.key AS key
