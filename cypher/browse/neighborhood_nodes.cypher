// Entities within $hops RELATES_TO hops of one entity (edges visible under the as_of rule).
// params: $agent_id string, $key string, $hops int (1..3), $as_of datetime|null, $max_nodes int
// returns: entity map + depth int, the centre first (depth 0), then by depth and importance
// Variable-length bounds cannot be parameters: one branch per hop count, and only the branch
// of $hops expands (the others stop at their WHERE), so 1 hop never walks 3.
MATCH (c:Entity {agent_id: $agent_id, key: $key})
OPTIONAL CALL (c) {
  WITH c WHERE $hops = 1
  MATCH p = (c)-[rels:RELATES_TO*1..1]-(o:Entity)
  WHERE o <> c AND all(r IN rels WHERE
          ($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
          OR ($as_of IS NOT NULL AND r.created_at <= $as_of
              AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
              AND coalesce(r.valid_from, r.created_at) <= $as_of
              AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN o, length(p) AS len
  UNION
  WITH c WHERE $hops = 2
  MATCH p = (c)-[rels:RELATES_TO*1..2]-(o:Entity)
  WHERE o <> c AND all(r IN rels WHERE
          ($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
          OR ($as_of IS NOT NULL AND r.created_at <= $as_of
              AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
              AND coalesce(r.valid_from, r.created_at) <= $as_of
              AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN o, length(p) AS len
  UNION
  WITH c WHERE $hops = 3
  MATCH p = (c)-[rels:RELATES_TO*1..3]-(o:Entity)
  WHERE o <> c AND all(r IN rels WHERE
          ($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
          OR ($as_of IS NOT NULL AND r.created_at <= $as_of
              AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
              AND coalesce(r.valid_from, r.created_at) <= $as_of
              AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
  RETURN o, length(p) AS len
}
WITH c, o, min(len) AS depth
ORDER BY depth, o.importance DESC, o.key
WITH c, collect(CASE WHEN o IS NULL THEN null ELSE {node: o, depth: depth} END) AS found
UNWIND [{node: c, depth: 0}] + found[..$max_nodes - 1] AS item
WITH item.node AS n, item.depth AS depth
RETURN n {.key, .name, .type, .importance, .mentions, .summary_text} AS entity, depth
