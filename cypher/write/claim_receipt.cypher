// Idempotency: claim (agent_id, key) for this call, or return the earlier call's stored result.
// params: $agent_id string, $key string, $now datetime, $token string, $ttl_ms int
// returns: result string (JSON, null while pending), claimed bool, taken_over bool
// A pending claim older than $ttl_ms (its writer died or lost Neo4j before completing) is
// taken over. Run after write/lock_receipt in the same transaction, so the check below reads
// the state committed by any concurrent claimer.
MATCH (w:WriteReceipt {agent_id: $agent_id, key: $key})
WITH w, w.result IS NULL AND w.token <> $token
        AND w.created_at < $now - duration({milliseconds: $ttl_ms}) AS expired
SET w.token = CASE WHEN expired THEN $token ELSE w.token END,
    w.created_at = CASE WHEN expired THEN $now ELSE w.created_at END
RETURN w.result AS result, w.token = $token AS claimed, expired AS taken_over
