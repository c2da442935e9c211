// Write a batch of imported documents (MERGE on the mapped id).
// params: $agent_id string, $rows list<{id string, props map}>
// returns: written int
UNWIND $rows AS row
MERGE (n:Document {id: row.id})
SET n += row.props, n.agent_id = $agent_id
RETURN count(n) AS written
