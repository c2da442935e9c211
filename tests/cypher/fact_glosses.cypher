// Every fact of an agent with its English gloss, the gloss's language and both vectors (gloss tests).
// params: $agent_id string
// returns: id string, text string, gloss string|null, gloss_language string|null, embedding list<float>|null, gloss_embedding list<float>|null
MATCH (f:Fact {agent_id: $agent_id})
RETURN f.id AS id, f.text AS text, f.gloss AS gloss, f.gloss_language AS gloss_language,
       f.embedding AS embedding, f.gloss_embedding AS gloss_embedding
ORDER BY f.text
