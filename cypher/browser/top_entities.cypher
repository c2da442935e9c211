// Top entities by importance, with their mention and active-fact counts.
// params: $agent_id string, $limit int (e.g. 15)
// returns: entity node, name, type, importance, mentions, facts
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.merged_into IS NULL
OPTIONAL MATCH (f:Fact)-[:ABOUT]->(e)
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
WITH e, count(f) AS facts
RETURN e AS entity, e.name AS name, e.type AS type, e.importance AS importance,
       e.mentions AS mentions, facts
ORDER BY importance DESC, facts DESC
LIMIT $limit
