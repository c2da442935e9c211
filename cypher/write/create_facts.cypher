// Create fact versions; MERGE on id makes a retried transaction idempotent (callers pre-check supplied ids).
// params: $agent_id string, $rows list<{id string, props map}>
// returns: written int
UNWIND $rows AS row
MERGE (f:Fact {id: row.id})
ON CREATE SET f += row.props, f.agent_id = $agent_id
RETURN count(f) AS written
