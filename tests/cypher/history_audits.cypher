// Decision history of an agent, newest first.
// params: $agent_id string, $limit int
// returns: id, created_at, event_id, action, applied, blocked_reason, fact_id, target_id, reason, mode, text
MATCH (a:Audit {agent_id: $agent_id})
RETURN a.id AS id, a.created_at AS created_at, a.event_id AS event_id, a.action AS action,
       a.applied AS applied, a.blocked_reason AS blocked_reason, a.fact_id AS fact_id,
       a.target_id AS target_id, a.reason AS reason, a.mode AS mode, a.text AS text
ORDER BY a.created_at DESC, a.id
LIMIT $limit
