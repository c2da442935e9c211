// An agent's decision history (Audit nodes), newest first, optionally by action and time.
// params: $agent_id string, $action string|null, $since datetime|null, $limit int
// returns: audit map
MATCH (a:Audit {agent_id: $agent_id})
WHERE ($action IS NULL OR a.action = $action) AND ($since IS NULL OR a.created_at >= $since)
RETURN a {.id, .created_at, .event_id, .action, .applied, .blocked_reason, .fact_id,
          .target_id, .reason, .mode} AS audit
ORDER BY a.created_at DESC
LIMIT $limit
