// The facts an erase removes: the given ones with every older version they replaced, their source events and the entities they are about.
// params: $agent_id string, $ids list<string>
// returns: fact_ids list<string>, event_ids list<string>, entity_keys list<string>
UNWIND $ids AS fid
MATCH (f:Fact {id: fid}) WHERE f.agent_id = $agent_id
MATCH (f)-[:SUPERSEDES*0..]->(old:Fact)
WITH collect(DISTINCT old) AS facts
CALL (facts) {
  UNWIND facts AS f
  OPTIONAL MATCH (f)-[:FROM_EVENT]->(ev:Event)
  RETURN collect(DISTINCT ev.id) AS event_ids
}
CALL (facts) {
  UNWIND facts AS f
  OPTIONAL MATCH (f)-[:ABOUT]->(e:Entity)
  RETURN collect(DISTINCT e.key) AS entity_keys
}
RETURN [f IN facts | f.id] AS fact_ids, event_ids, entity_keys
