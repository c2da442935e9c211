// One background job of an agent by id (progress polling).
// params: $agent_id string, $id string
// returns: job map, or no row
MATCH (j:Job {agent_id: $agent_id, id: $id})
RETURN j {.id, .kind, .subject, .status, .attempts, .max_attempts, .run_after, .leased_at,
          .last_error, .last_error_code, .progress, .created_at, .finished_at} AS job
