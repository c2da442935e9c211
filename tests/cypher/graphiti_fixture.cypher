// Test helper (peer imports): write a small graph with Graphiti's own node and edge schema (Episodic, Entity, RELATES_TO, MENTIONS, Community) under one group_id.
// params: $group string, $episodes list<map>, $entities list<{props map, person bool}>, $edges list<{source, target, props map}>, $mentions list<{episode, entity}>
// returns: edges int
CALL () {
  UNWIND $episodes AS ep
  CREATE (e:Episodic) SET e = ep, e.group_id = $group
  RETURN count(e) AS episodes
}
CALL () {
  UNWIND $entities AS en
  CREATE (n:Entity) SET n = en.props, n.group_id = $group
  FOREACH (_ IN CASE WHEN en.person THEN [1] ELSE [] END | SET n:Person)
  RETURN count(n) AS entities
}
CALL () {
  CREATE (:Community {uuid: $group + '-community', name: 'community', group_id: $group})
}
CALL () {
  UNWIND $mentions AS m
  MATCH (e:Episodic {uuid: m.episode, group_id: $group}), (n:Entity {uuid: m.entity, group_id: $group})
  CREATE (e)-[:MENTIONS {uuid: m.episode + m.entity, group_id: $group}]->(n)
  RETURN count(*) AS mentions
}
UNWIND $edges AS ed
MATCH (a:Entity {uuid: ed.source, group_id: $group}), (b:Entity {uuid: ed.target, group_id: $group})
CREATE (a)-[r:RELATES_TO]->(b) SET r = ed.props, r.group_id = $group
RETURN count(r) AS edges
