// Bench helper (read): one agent's active entity relationships (RELATES_TO) with the ends' names: the triples of personalized PageRank.
// params: $agent_id string
// returns: source_key string, source string, type string, target_key string, target string
MATCH (s:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(t:Entity)
WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN s.key AS source_key, s.name AS source, r.type AS type, t.key AS target_key,
       t.name AS target
ORDER BY source_key, type, target_key
