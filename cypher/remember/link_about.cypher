// Link imported facts to every entity they mention; exactly one primary link (the subject).
// params: $agent_id string, $rows list<{fact_id string, key string, primary bool}>
// returns: linked int
// The hints keep both lookups on their unique constraints (fact id; entity agent_id + key)
// rather than the agent_id indexes, which would scan the agent's nodes per row.
UNWIND $rows AS row
MATCH (f:Fact {id: row.fact_id})
  USING INDEX f:Fact(id)
  WHERE f.agent_id = $agent_id
MATCH (e:Entity {agent_id: $agent_id, key: row.key})
  USING INDEX e:Entity(agent_id, key)
MERGE (f)-[a:ABOUT]->(e)
SET a.primary = row.primary
RETURN count(a) AS linked
