// Test helper: a small star graph (four spokes linking to a hub) for GDS checks.
// params: $agent_id string
// returns: created int
CREATE (h:GdsTest {agent_id: $agent_id, name: 'hub'})
WITH h
UNWIND ['a', 'b', 'c', 'd'] AS n
CREATE (s:GdsTest {agent_id: $agent_id, name: n})-[:LINK]->(h)
RETURN count(s) AS created
