// Test helper: give every vector of an agent's nodes the given 64-bit list property (a vector as written before 32-bit storage).
// params: $agent_id string, $vector list<float>
// returns: set int
MATCH (n {agent_id: $agent_id})
WHERE n.embedding IS NOT NULL
SET n.embedding = $vector
RETURN count(n) AS set
