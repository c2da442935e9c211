// Replace the payload of jobs that carried erased messages as context by its scrubbed form (the job, its status and result stay).
// params: $agent_id string, $rows list<{id string, payload string}>
// returns: scrubbed int
UNWIND $rows AS row
MATCH (j:Job {id: row.id}) WHERE j.agent_id = $agent_id
SET j.payload = row.payload
RETURN count(j) AS scrubbed
