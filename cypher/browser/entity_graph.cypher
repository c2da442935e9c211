// An agent's entity graph: every active RELATES_TO edge between its entities (drawn as a graph).
// params: $agent_id string
// returns: p path (Entity)-[RELATES_TO]->(Entity), captions from hippograph.grass
MATCH p = (a:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(b:Entity)
WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN p
LIMIT 300
