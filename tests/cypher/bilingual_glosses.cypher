// Bench helper (read): the English gloss vectors of one agent's active facts (bilingual benchmark: the exact vector ranker over text and gloss vectors).
// params: $agent_id string
// returns: id string, gloss_embedding list<float>
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.gloss_embedding IS NOT NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL
RETURN f.id AS id, f.gloss_embedding AS gloss_embedding
ORDER BY id
