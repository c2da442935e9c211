// An agent's background jobs, newest first, optionally by status.
// params: $agent_id string, $status string|null, $limit int
// returns: job map
MATCH (j:Job {agent_id: $agent_id})
WHERE $status IS NULL OR j.status = $status
RETURN j {.id, .kind, .subject, .status, .attempts, .max_attempts, .run_after, .leased_at,
          .last_error, .last_error_code, .progress, .created_at, .finished_at} AS job
ORDER BY j.created_at DESC
LIMIT $limit
