// Delete a batch of facts with their relationships (ABOUT, SUPERSEDES, FROM_EVENT, CAUSES, DERIVED_FROM).
// params: $agent_id string, $ids list<string> (one batch)
// returns: deleted int
UNWIND $ids AS fid
MATCH (f:Fact {id: fid}) WHERE f.agent_id = $agent_id
DETACH DELETE f
RETURN count(*) AS deleted
