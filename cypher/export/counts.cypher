// How many records of each kind an agent export holds (sizes the progress bar).
// params: $agent_id string
// returns: entities int, aliases int, events int, documents int, chunks int, facts int, relations int, observations int
CALL () { MATCH (n:Entity {agent_id: $agent_id}) RETURN count(n) AS entities }
CALL () { MATCH (n:Alias {agent_id: $agent_id}) RETURN count(n) AS aliases }
CALL () { MATCH (n:Event {agent_id: $agent_id}) RETURN count(n) AS events }
CALL () { MATCH (n:Document {agent_id: $agent_id}) RETURN count(n) AS documents }
CALL () { MATCH (n:Chunk {agent_id: $agent_id}) RETURN count(n) AS chunks }
CALL () { MATCH (n:Fact {agent_id: $agent_id}) RETURN count(n) AS facts }
CALL () { MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO]->() RETURN count(r) AS relations }
CALL () { MATCH (n:Observation {agent_id: $agent_id}) RETURN count(n) AS observations }
RETURN entities, aliases, events, documents, chunks, facts, relations, observations
