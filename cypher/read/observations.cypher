// Observed patterns: the agent's (:Observation) nodes most similar to the query (exact scan; an agent has few).
// params: $agent_id string, $vector list<float>, $min_score float (index scale), $as_of datetime|null, $limit int
// returns: id string, text string, kind string, score float (index scale)
MATCH (o:Observation {agent_id: $agent_id})
WHERE o.embedding IS NOT NULL AND ($as_of IS NULL OR o.created_at <= $as_of)
WITH o, vector.similarity.cosine(o.embedding, $vector) AS score
WHERE score >= $min_score
RETURN o.id AS id, o.text AS text, o.kind AS kind, score
ORDER BY score DESC, id
LIMIT $limit
