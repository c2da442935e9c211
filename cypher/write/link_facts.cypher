// Link a message's facts to the entities they mention (ABOUT; exactly one primary link, the subject) and to the events they came from (FROM_EVENT), both batches in one statement.
// params: $agent_id string, $about list<{fact_id string, key string, primary bool}>, $provenance list<{fact_id string, event_id string}>
// returns: about int, provenance int (links written)
// Lookups are pinned to the unique keys (USING INDEX SEEK): left to itself the planner may
// take the Entity(agent_id) index and filter the agent's entities per row, or scan an index.
CALL () {
  UNWIND $about AS row
  MATCH (f:Fact {id: row.fact_id, agent_id: $agent_id})
  USING INDEX SEEK f:Fact(id)
  MATCH (e:Entity {agent_id: $agent_id, key: row.key})
  USING INDEX SEEK e:Entity(agent_id, key)
  MERGE (f)-[a:ABOUT]->(e)
  SET a.primary = row.primary
  RETURN count(a) AS about
}
CALL () {
  UNWIND $provenance AS row
  MATCH (f:Fact {id: row.fact_id, agent_id: $agent_id})
  USING INDEX SEEK f:Fact(id)
  MATCH (ev:Event {id: row.event_id, agent_id: $agent_id})
  USING INDEX SEEK ev:Event(id)
  MERGE (f)-[r:FROM_EVENT]->(ev)
  RETURN count(r) AS provenance
}
RETURN about, provenance
