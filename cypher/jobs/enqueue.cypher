// Create each job unless its dedup slot already points at a pending/leased job (run after dedup_lock).
// params: $rows list<{id, kind, agent_id, subject, dedup_key, payload string, max_attempts int, delay_ms int}>
// returns: requested_id string, job_id string, created bool
UNWIND $rows AS row
MATCH (d:JobDedup {key: row.dedup_key})
OPTIONAL MATCH (active:Job {id: d.active_job_id})
  WHERE active.status IN ['pending', 'leased']
WITH row, d, active, active IS NULL AS fresh
FOREACH (_ IN CASE WHEN fresh THEN [1] ELSE [] END |
  CREATE (:Job {id: row.id, kind: row.kind, agent_id: row.agent_id, subject: row.subject,
                dedup_key: row.dedup_key, status: 'pending', attempts: 0,
                max_attempts: row.max_attempts,
                run_after: datetime() + duration({milliseconds: row.delay_ms}),
                payload: row.payload, progress: 0.0, created_at: datetime()})
  SET d.active_job_id = row.id
)
RETURN row.id AS requested_id, CASE WHEN fresh THEN row.id ELSE active.id END AS job_id,
       fresh AS created
