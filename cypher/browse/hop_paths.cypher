// Hop paths of retrieved facts: for each, a shortest path of at most its hop count over the
// relationships visible at $as_of, from one of the query's entities to an entity the fact is about.
// params: $agent_id string, $starts list<string> (entity keys), $rows list<{id string, hops int}>, $as_of datetime|null
// returns: id string, nodes list<{key, name}> (start first), rels list<{type, forward bool}> (one fewer)
UNWIND $rows AS row
MATCH (f:Fact {agent_id: $agent_id, id: row.id})
CALL (f, row) {
  MATCH (s:Entity {agent_id: $agent_id})
  WHERE s.key IN $starts
  MATCH (f)-[:ABOUT]->(e:Entity)
  MATCH p = (s)-[:RELATES_TO*0..2]-(e)
  WHERE length(p) <= row.hops
    AND all(r IN relationships(p) WHERE
      ($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
      OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
          AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
          AND coalesce(r.valid_from, r.created_at) <= $as_of
          AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  WITH p, nodes(p) AS ns, relationships(p) AS rs
  ORDER BY length(p), coalesce(ns[0].key, '')
  LIMIT 1
  RETURN [n IN ns | {key: n.key, name: n.name}] AS nodes,
         [i IN range(0, size(rs) - 1) | {type: rs[i].type, forward: startNode(rs[i]) = ns[i]}] AS rels
}
RETURN row.id AS id, nodes, rels
