// Test helper (export/import): how many nodes an agent has.
// params: $agent string
// returns: n int
MATCH (n {agent_id: $agent})
RETURN count(n) AS n
