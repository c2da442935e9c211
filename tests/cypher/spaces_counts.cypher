// How many events, facts, entities and document chunks an agent has (embedding-space tests).
// params: $agent_id string
// returns: events int, facts int, entities int
CALL { MATCH (v:Event {agent_id: $agent_id}) RETURN count(v) AS events }
CALL { MATCH (f:Fact {agent_id: $agent_id}) RETURN count(f) AS facts }
CALL { MATCH (e:Entity {agent_id: $agent_id}) RETURN count(e) AS entities }
RETURN events, facts, entities
