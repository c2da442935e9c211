// Delete up to $batch nodes of the given agents (every node carrying one of their ids; one scan for all of them); callers repeat until deleted < $batch.
// params: $agents list<string>, $batch int
// returns: deleted int
MATCH (n)
WHERE n.agent_id IN $agents
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
