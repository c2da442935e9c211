// Delete every node of one agent (tests and agent removal).
// params: $agent_id string
// returns: deleted int
MATCH (n {agent_id: $agent_id})
DETACH DELETE n
RETURN count(*) AS deleted
