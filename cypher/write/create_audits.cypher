// Decision history: one Audit node per reconciliation decision (applied or blocked).
// params: $agent_id string, $now datetime, $rows list<{id, event_id, action, applied, blocked_reason, fact_id, target_id, reason, mode, text}>
// returns: id string
UNWIND $rows AS row
CREATE (a:Audit {id: row.id, agent_id: $agent_id, created_at: $now, event_id: row.event_id,
                 action: row.action, applied: row.applied, blocked_reason: row.blocked_reason,
                 fact_id: row.fact_id, target_id: row.target_id, reason: row.reason,
                 mode: row.mode, text: row.text})
RETURN a.id AS id
