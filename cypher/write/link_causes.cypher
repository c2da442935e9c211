// Causal links between facts of the same message.
// params: $agent_id string, $rows list<{cause_id string, effect_id string, strength float}>
// returns: linked int
UNWIND $rows AS row
MATCH (c:Fact {id: row.cause_id, agent_id: $agent_id})
MATCH (e:Fact {id: row.effect_id, agent_id: $agent_id})
MERGE (c)-[r:CAUSES]->(e)
SET r.strength = row.strength
RETURN count(r) AS linked
