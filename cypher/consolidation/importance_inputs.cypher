// Signals for importance re-scoring of an agent's active facts (one page).
// params: $agent_id string, $after_id string, $limit int
// returns: id, base, retrieval_count, days_since_retrieved, reinforcement_count, stale, entity_score
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL AND f.id > $after_id
WITH f ORDER BY f.id LIMIT $limit
OPTIONAL MATCH (f)-[:ABOUT {primary: true}]->(e:Entity)
WITH f, head(collect(e)) AS e
RETURN f.id AS id, coalesce(f.importance_base, f.importance, 0.5) AS base,
       coalesce(f.retrieval_count, 0) AS retrieval_count,
       CASE WHEN f.last_retrieved_at IS NULL THEN null
            ELSE duration.inSeconds(f.last_retrieved_at, datetime()).seconds / 86400.0 END
         AS days_since_retrieved,
       coalesce(f.reinforcement_count, 1) AS reinforcement_count,
       coalesce(f.stale, false) AS stale, e.centrality AS entity_score
ORDER BY f.id
