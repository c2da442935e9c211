// Idempotency: drop a claim whose call failed before completing, so a retry can run again.
// params: $agent_id string, $key string, $token string
// returns: released int
MATCH (w:WriteReceipt {agent_id: $agent_id, key: $key})
WHERE w.token = $token AND w.result IS NULL
DELETE w
RETURN count(*) AS released
