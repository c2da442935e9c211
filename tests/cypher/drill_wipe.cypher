// Drills: clear the throw-away drill server between drills (drill agents' nodes, every job), in
// batches; run until it returns 0. Never run against the shared server.
// params: $limit int
// returns: deleted int
MATCH (n)
WHERE n:Job OR n:JobDedup OR n.agent_id STARTS WITH 'drill-'
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
