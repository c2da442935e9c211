// Entities whose profile is missing or older than their newest active fact, with top facts.
// params: $agent_id string, $keys list<string>|null, $limit int, $top int, $force bool
// returns: key, name, type, facts list<string>
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.merged_into IS NULL AND ($keys IS NULL OR e.key IN $keys)
CALL (e) {
  MATCH (f:Fact)-[:ABOUT]->(e)
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  WITH f ORDER BY coalesce(f.importance, 0.5) DESC, coalesce(f.confidence, 0.5) DESC,
                  f.created_at DESC, f.id
  RETURN collect(f.text) AS texts,
         max(coalesce(f.last_confirmed_at, f.created_at)) AS latest
}
WITH e, texts, latest
WHERE size(texts) > 0
  AND ($force OR e.profile_refreshed_at IS NULL OR latest > e.profile_refreshed_at)
RETURN e.key AS key, e.name AS name, e.type AS type, texts[0..$top] AS facts
ORDER BY size(texts) DESC, key
LIMIT $limit
