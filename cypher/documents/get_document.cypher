// One document of an agent (with its raw content while it is still pending).
// params: $agent_id string, $id string
// returns: document map
MATCH (d:Document {id: $id, agent_id: $agent_id})
RETURN properties(d) AS document
