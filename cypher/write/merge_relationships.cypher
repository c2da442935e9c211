// Re-point the dropped entity's relationships to the survivor (same properties); keep<->drop edges are closed, not looped.
// params: $agent_id string, $keep_key string, $drop_key string, $now datetime
// returns: moved int, closed int
MATCH (keep:Entity {agent_id: $agent_id, key: $keep_key})
MATCH (gone:Entity {agent_id: $agent_id, key: $drop_key})
CALL (keep, gone) {
  OPTIONAL MATCH (gone)-[r:RELATES_TO]->(t:Entity) WHERE t <> keep
  FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
    CREATE (keep)-[n:RELATES_TO]->(t) SET n = properties(r) DELETE r)
  RETURN count(r) AS moved_out
}
CALL (keep, gone) {
  OPTIONAL MATCH (s:Entity)-[r:RELATES_TO]->(gone) WHERE s <> keep
  FOREACH (_ IN CASE WHEN r IS NULL THEN [] ELSE [1] END |
    CREATE (s)-[n:RELATES_TO]->(keep) SET n = properties(r) DELETE r)
  RETURN count(r) AS moved_in
}
CALL (keep, gone) {
  OPTIONAL MATCH (keep)-[r:RELATES_TO]-(gone)
  WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
  SET r.valid_to = $now, r.invalidated_at = $now
  RETURN count(r) AS closed
}
RETURN moved_out + moved_in AS moved, closed
