// Delete entities with their aliases, relationships and merge candidates; with $orphans_only, only those no fact is about and no relationship touches.
// params: $agent_id string, $keys list<string>, $orphans_only bool
// returns: key string
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
WHERE NOT $orphans_only
   OR (NOT EXISTS { (:Fact)-[:ABOUT]->(e) } AND NOT EXISTS { (e)-[:RELATES_TO]-() })
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
DETACH DELETE a
WITH DISTINCT e, key
CALL (e, key) {
  OPTIONAL MATCH (m:MergeCandidate {agent_id: $agent_id})
  WHERE m.keep_key = key OR m.drop_key = key
  DETACH DELETE m
  RETURN count(*) AS candidates
}
DETACH DELETE e
RETURN key
