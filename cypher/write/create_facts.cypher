// Create fact versions; MERGE on id keeps a retried transaction from duplicating them.
// params: $agent_id string, $rows list<{id string, props map}>
// returns: id string
UNWIND $rows AS row
MERGE (f:Fact {id: row.id})
ON CREATE SET f += row.props, f.agent_id = $agent_id
WITH f WHERE f.agent_id = $agent_id
RETURN f.id AS id
