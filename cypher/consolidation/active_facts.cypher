// Active facts of an agent with their embedding and primary entity, most important first.
// params: $agent_id string, $limit int
// returns: id, text, subject_key, subject_name, embedding, importance, created_at
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL AND f.embedding IS NOT NULL
OPTIONAL MATCH (f)-[:ABOUT {primary: true}]->(e:Entity)
WITH f, head(collect(e)) AS e
RETURN f.id AS id, f.text AS text, coalesce(f.subject_key, e.key) AS subject_key,
       coalesce(e.name, f.subject_key) AS subject_name, f.embedding AS embedding,
       coalesce(f.importance, 0.5) AS importance, f.created_at AS created_at
ORDER BY importance DESC, f.created_at DESC, f.id
LIMIT $limit
