// Version chain: the new fact SUPERSEDES the one it replaces.
// params: $agent_id string, $rows list<{new_id string, old_id string}>
// returns: linked int
UNWIND $rows AS row
MATCH (n:Fact {id: row.new_id, agent_id: $agent_id})
MATCH (o:Fact {id: row.old_id, agent_id: $agent_id})
MERGE (n)-[r:SUPERSEDES]->(o)
RETURN count(r) AS linked
