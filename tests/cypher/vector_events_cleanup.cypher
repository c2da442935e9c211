// Tests and benches: deletes a batch of those events (agent ids start with the prefix).
// params: $prefix string, $batch int
// returns: deleted int
MATCH (v:Event) WHERE v.agent_id STARTS WITH $prefix
WITH v LIMIT $batch
DETACH DELETE v
RETURN count(*) AS deleted
