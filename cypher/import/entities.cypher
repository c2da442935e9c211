// Write a batch of imported entities (MERGE on the agent's key: re-importing rewrites them).
// params: $agent_id string, $rows list<{key string, props map}>
// returns: written int
UNWIND $rows AS row
MERGE (e:Entity {agent_id: $agent_id, key: row.key})
SET e += row.props, e.agent_id = $agent_id
RETURN count(e) AS written
