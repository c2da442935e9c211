// Every node of an agent that carries a vector, with the text its vector is made from (re-embedding); a fact with an English gloss comes twice, the second time as label 'Gloss' with the gloss (its vector is `gloss_embedding`).
// params: $agent_id string
// returns: eid string (elementId), label string, text string, speaker string|null (events)
MATCH (n:Fact {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, 'Fact' AS label, n.text AS text, null AS speaker
UNION ALL
MATCH (n:Event {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, 'Event' AS label, n.text AS text, n.speaker AS speaker
UNION ALL
MATCH (n:Entity {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, 'Entity' AS label, n.name AS text, null AS speaker
UNION ALL
MATCH (n:Chunk {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, 'Chunk' AS label, n.text AS text, null AS speaker
UNION ALL
MATCH (n:Observation {agent_id: $agent_id}) WHERE n.embedding IS NOT NULL
RETURN elementId(n) AS eid, 'Observation' AS label, n.text AS text, null AS speaker
UNION ALL
MATCH (n:Fact {agent_id: $agent_id})
USING INDEX n:Fact(agent_id, gloss_language)
WHERE n.gloss_language IS NOT NULL AND n.gloss IS NOT NULL
RETURN elementId(n) AS eid, 'Gloss' AS label, n.gloss AS text, null AS speaker
