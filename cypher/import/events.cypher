// Write a batch of imported events (MERGE on the mapped id: re-importing rewrites them).
// params: $agent_id string, $rows list<{id string, props map}>
// returns: written int
UNWIND $rows AS row
MERGE (n:Event {id: row.id})
SET n += row.props, n.agent_id = $agent_id
RETURN count(n) AS written
