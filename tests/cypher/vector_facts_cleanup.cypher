// Tests and benches: deletes a batch of those facts (agent ids start with the prefix).
// params: $prefix string, $batch int
// returns: deleted int
MATCH (f:Fact) WHERE f.agent_id STARTS WITH $prefix
WITH f LIMIT $batch
DETACH DELETE f
RETURN count(*) AS deleted
