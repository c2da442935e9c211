// Provenance: link facts to the events (messages) they came from.
// params: $agent_id string, $rows list<{fact_id string, event_id string}>
// returns: linked int
UNWIND $rows AS row
MATCH (f:Fact {id: row.fact_id, agent_id: $agent_id})
MATCH (ev:Event {id: row.event_id, agent_id: $agent_id})
MERGE (f)-[r:FROM_EVENT]->(ev)
RETURN count(r) AS linked
