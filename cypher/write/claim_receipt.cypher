// Idempotency: claim (agent_id, key) for this call, or return the earlier call's stored result.
// params: $agent_id string, $key string, $now datetime, $token string
// returns: result string (JSON, null while pending), claimed bool
MERGE (w:WriteReceipt {agent_id: $agent_id, key: $key})
ON CREATE SET w.created_at = $now, w.token = $token
RETURN w.result AS result, w.token = $token AS claimed
