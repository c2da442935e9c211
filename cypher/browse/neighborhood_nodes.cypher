// Entities within $hops RELATES_TO hops of one entity (edges visible under the as_of rule).
// params: $agent_id string, $key string, $hops int (1..3), $as_of datetime|null, $max_nodes int, $types list<string>|null (only relationships of these types)
// returns: entity map + depth int, the centre first (depth 0), then by depth and importance
// Breadth first, one level at a time: a level expands each entity the level before reached
// once (DISTINCT; no membership tests, which are quadratic: an entity reached again is expanded
// again at most once per level and keeps its smallest depth), so a hub costs its edges, not
// every path through it (two hubs sharing n neighbours have n^2 three-hop paths); levels past
// $hops expand nothing.
MATCH (c:Entity {agent_id: $agent_id, key: $key})
CALL (c) {
  OPTIONAL MATCH (c)-[r:RELATES_TO]-(o:Entity)
  WHERE ($types IS NULL OR r.type IN $types)
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
        OR ($as_of IS NOT NULL AND r.created_at <= $as_of
            AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
            AND coalesce(r.valid_from, r.created_at) <= $as_of
            AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN collect(DISTINCT o) AS one
}
CALL (one) {
  UNWIND CASE WHEN $hops >= 2 THEN one ELSE [] END AS n
  MATCH (n)-[r:RELATES_TO]-(o:Entity)
  WHERE ($types IS NULL OR r.type IN $types)
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
        OR ($as_of IS NOT NULL AND r.created_at <= $as_of
            AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
            AND coalesce(r.valid_from, r.created_at) <= $as_of
            AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN collect(DISTINCT o) AS two
}
CALL (two) {
  UNWIND CASE WHEN $hops >= 3 THEN two ELSE [] END AS n
  MATCH (n)-[r:RELATES_TO]-(o:Entity)
  WHERE ($types IS NULL OR r.type IN $types)
    AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
        OR ($as_of IS NOT NULL AND r.created_at <= $as_of
            AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
            AND coalesce(r.valid_from, r.created_at) <= $as_of
            AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN collect(DISTINCT o) AS three
}
UNWIND [{node: c, depth: 0}] + [n IN one | {node: n, depth: 1}]
       + [n IN two | {node: n, depth: 2}] + [n IN three | {node: n, depth: 3}] AS item
WITH item.node AS n, min(item.depth) AS depth
ORDER BY depth, n.importance DESC, n.key
LIMIT $max_nodes
RETURN n {.key, .name, .type, .importance, .mentions, .summary_text} AS entity, depth
