// Write a batch of imported fact versions with their ABOUT and FROM_EVENT links.
// params: $agent_id string, $rows list<{id string, props map, about list<{key, primary}>, from_events list<string>}>
// returns: written int
UNWIND $rows AS row
MERGE (f:Fact {id: row.id})
SET f += row.props, f.agent_id = $agent_id
WITH f, row
CALL (f, row) {
  UNWIND row.about AS ab
  MATCH (e:Entity {agent_id: $agent_id, key: ab.key})
  MERGE (f)-[a:ABOUT]->(e)
  SET a.primary = ab.primary
  RETURN count(*) AS about
}
CALL (f, row) {
  UNWIND row.from_events AS eid
  MATCH (ev:Event {id: eid, agent_id: $agent_id})
  MERGE (f)-[:FROM_EVENT]->(ev)
  RETURN count(*) AS events
}
RETURN count(f) AS written
