// Idempotency: store the final WriteResult (JSON) on the claimed receipt.
// params: $agent_id string, $key string, $result string, $now datetime, $overwrite bool
// returns: key string, result string (the stored result: an earlier one when not overwritten)
// $overwrite = false keeps a result already stored (a call whose claim was taken over and
// found its message already extracted must not replace the first call's answer).
MERGE (w:WriteReceipt {agent_id: $agent_id, key: $key})
ON CREATE SET w.created_at = $now
WITH w, $overwrite OR w.result IS NULL AS store
SET w.result = CASE WHEN store THEN $result ELSE w.result END,
    w.completed_at = CASE WHEN store THEN $now ELSE w.completed_at END
RETURN w.key AS key, w.result AS result
