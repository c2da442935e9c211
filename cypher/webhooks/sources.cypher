// What happened to the webhooks' agents since the dispatch cursor, oldest first: applied audit decisions, finished jobs and messages whose extraction committed no decision. Also rows up to the look-back before the cursor that have no delivery yet (a write stamps its audit before it commits, so one may appear behind the cursor). Index-backed per agent: audit_agent, job_agent_finished, event_agent_extracted, webhook_delivery_source.
// params: $targets list<map {agent_id, since datetime (the later of its webhooks' first registration and the look-back), actions list<string>, jobs list<string>, empty_writes bool}>, $cursor_at datetime, $cursor_id string, $limit int
// returns: agent_id, source ('audit' | 'job' | 'event'), id, at, action, fact_id, target_id, scope, text, event_id, kind, status, error_code, error, attempts, thread_id — at most $limit rows, ordered by at, id
UNWIND $targets AS t
CALL (t) {
  MATCH (a:Audit {agent_id: t.agent_id})
  WHERE a.created_at >= t.since AND a.applied = true AND a.action IN t.actions
    AND (a.created_at > $cursor_at OR (a.created_at = $cursor_at AND a.id > $cursor_id)
         OR NOT EXISTS { MATCH (d:WebhookDelivery {agent_id: t.agent_id, source_id: a.id}) })
  WITH a ORDER BY a.created_at, a.id LIMIT $limit
  RETURN 'audit' AS source, a.id AS id, a.created_at AS at, a.action AS action,
         a.fact_id AS fact_id, CASE WHEN a.erased_at IS NULL THEN a.target_id END AS target_id,
         a.scope AS scope, CASE WHEN a.erased_at IS NULL THEN a.text END AS text,
         a.event_id AS event_id, null AS kind, null AS status, null AS error_code,
         null AS error, null AS attempts, null AS thread_id
  UNION ALL
  MATCH (j:Job {agent_id: t.agent_id})
  WHERE j.finished_at >= t.since AND j.status IN t.jobs
    AND (j.finished_at > $cursor_at OR (j.finished_at = $cursor_at AND j.id > $cursor_id)
         OR NOT EXISTS { MATCH (d:WebhookDelivery {agent_id: t.agent_id, source_id: j.id}) })
  WITH j ORDER BY j.finished_at, j.id LIMIT $limit
  RETURN 'job' AS source, j.id AS id, j.finished_at AS at, null AS action, null AS fact_id,
         null AS target_id, null AS scope, null AS text, null AS event_id, j.kind AS kind,
         j.status AS status, j.last_error_code AS error_code, left(j.last_error, 500) AS error,
         j.attempts AS attempts, null AS thread_id
  UNION ALL
  MATCH (e:Event {agent_id: t.agent_id})
  WHERE t.empty_writes AND e.extracted_at >= t.since
    AND (e.extracted_at > $cursor_at OR (e.extracted_at = $cursor_at AND e.id > $cursor_id)
         OR NOT EXISTS { MATCH (d:WebhookDelivery {agent_id: t.agent_id, source_id: e.id}) })
    AND NOT EXISTS {
      MATCH (x:Audit {agent_id: t.agent_id})
      WHERE x.created_at = e.extracted_at AND x.event_id = e.id
    }
  WITH e ORDER BY e.extracted_at, e.id LIMIT $limit
  RETURN 'event' AS source, e.id AS id, e.extracted_at AS at, null AS action, null AS fact_id,
         null AS target_id, null AS scope, null AS text, null AS event_id, null AS kind,
         null AS status, null AS error_code, null AS error, null AS attempts,
         e.thread_id AS thread_id
}
RETURN t.agent_id AS agent_id, source, id, at, action, fact_id, target_id, scope, text, event_id,
       kind, status, error_code, error, attempts, thread_id
ORDER BY at, id
LIMIT $limit
