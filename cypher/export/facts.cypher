// One page of an agent's facts (every version, active or closed) for export, in id order,
// with the entities each is about and the events it came from.
// params: $agent_id string, $after string, $limit int
// returns: id string, props map, about list<{key, primary}>, from_events list<string>
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.id > $after
WITH f ORDER BY f.id LIMIT $limit
CALL (f) {
  OPTIONAL MATCH (f)-[a:ABOUT]->(e:Entity)
  RETURN [x IN collect({key: e.key, primary: coalesce(a.primary, false)}) WHERE x.key IS NOT NULL] AS about
}
CALL (f) {
  OPTIONAL MATCH (f)-[:FROM_EVENT]->(ev:Event)
  RETURN [i IN collect(ev.id) WHERE i IS NOT NULL] AS from_events
}
RETURN f.id AS id, properties(f) AS props, about, from_events
ORDER BY id
