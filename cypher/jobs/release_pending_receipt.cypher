// Drop a write receipt that was claimed but never completed (its worker died mid-write); only
// called for a job-scoped key while that job's lease is held, so no live writer owns it.
// params: $agent_id string, $key string
// returns: released int
MATCH (w:WriteReceipt {agent_id: $agent_id, key: $key})
WHERE w.result IS NULL
DETACH DELETE w
RETURN count(*) AS released
