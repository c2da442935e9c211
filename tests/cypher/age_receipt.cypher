// Make an agent's pending receipts (and events) look $seconds old: a crashed writer's claim.
// params: $agent_id string, $seconds int
// returns: receipts int
OPTIONAL MATCH (ev:Event {agent_id: $agent_id})
SET ev.ingested_at = ev.ingested_at - duration({seconds: $seconds})
WITH count(ev) AS events
OPTIONAL MATCH (w:WriteReceipt {agent_id: $agent_id})
WHERE w.result IS NULL
SET w.created_at = w.created_at - duration({seconds: $seconds})
RETURN count(w) AS receipts
