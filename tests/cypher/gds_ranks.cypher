// Test helper: the star graph's nodes by the rank GDS wrote.
// params: $agent_id string
// returns: name string, rank float
MATCH (n:GdsTest {agent_id: $agent_id})
RETURN n.name AS name, n.rank AS rank
ORDER BY n.rank DESC
