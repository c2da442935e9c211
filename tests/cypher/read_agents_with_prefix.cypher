// Bench/test helper (read): agent ids of facts whose agent_id starts with a prefix (to clean up after an interrupted benchmark).
// params: $prefix string
// returns: agent_id string, facts int
MATCH (f:Fact)
WHERE f.agent_id STARTS WITH $prefix
RETURN f.agent_id AS agent_id, count(*) AS facts
