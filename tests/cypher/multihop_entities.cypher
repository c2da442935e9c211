// Bench helper (read): one agent's entities with their name vectors and the active facts that mention them (ABOUT): the phrase nodes and phrase–passage edges of personalized PageRank.
// params: $agent_id string
// returns: key string, name string, embedding list<float>|null, fact_ids list<string>
MATCH (e:Entity {agent_id: $agent_id})
OPTIONAL MATCH (f:Fact)-[:ABOUT]->(e)
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
WITH e, collect(f.id) AS fact_ids
RETURN e.key AS key, e.name AS name, e.embedding AS embedding, fact_ids
ORDER BY key
