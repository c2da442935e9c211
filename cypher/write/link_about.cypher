// Link facts to every entity they mention; exactly one primary link (the subject).
// params: $agent_id string, $rows list<{fact_id string, key string, primary bool}>
// returns: linked int
UNWIND $rows AS row
MATCH (f:Fact {id: row.fact_id, agent_id: $agent_id})
MATCH (e:Entity {agent_id: $agent_id, key: row.key})
MERGE (f)-[a:ABOUT]->(e)
SET a.primary = row.primary
RETURN count(a) AS linked
