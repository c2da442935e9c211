// Reads a batch of agents' facts, entities, events and observations with every property (vectors and texts included) and every relationship leaving them with its properties, so that Neo4j's page cache holds those pages: the warm-up after a restart (graph/page_cache.py). Reads only.
// params: $agents list<string>
// returns: nodes int, relationships int, values int (properties read)
UNWIND $agents AS a
CALL (a) {
  MATCH (f:Fact {agent_id: a})
  RETURN count(f) AS facts, sum(size(keys(properties(f)))) AS fact_values
}
CALL (a) {
  MATCH (f:Fact {agent_id: a})-[r]->()
  RETURN count(r) AS fact_links, sum(size(keys(properties(r)))) AS fact_link_values
}
CALL (a) {
  MATCH (e:Entity {agent_id: a})
  RETURN count(e) AS entities, sum(size(keys(properties(e)))) AS entity_values
}
CALL (a) {
  MATCH (e:Entity {agent_id: a})-[r]->()
  RETURN count(r) AS entity_links, sum(size(keys(properties(r)))) AS entity_link_values
}
CALL (a) {
  MATCH (v:Event {agent_id: a})
  RETURN count(v) AS events, sum(size(keys(properties(v)))) AS event_values
}
CALL (a) {
  MATCH (v:Event {agent_id: a})-[r]->()
  RETURN count(r) AS event_links, sum(size(keys(properties(r)))) AS event_link_values
}
CALL (a) {
  MATCH (o:Observation {agent_id: a})
  RETURN count(o) AS observations, sum(size(keys(properties(o)))) AS observation_values
}
RETURN sum(facts + entities + events + observations) AS nodes,
       sum(fact_links + entity_links + event_links) AS relationships,
       sum(fact_values + fact_link_values + entity_values + entity_link_values + event_values
           + event_link_values + observation_values) AS values
