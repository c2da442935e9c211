// Each fact of an agent with its vector and the element ids of the entities it is ABOUT.
// params: $agent_id string
// returns: id string, embedding list<float>, about list<string>
MATCH (f:Fact {agent_id: $agent_id})
OPTIONAL MATCH (f)-[:ABOUT]->(e:Entity)
RETURN f.id AS id, f.embedding AS embedding, collect(elementId(e)) AS about
