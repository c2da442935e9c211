// Relationships invalidated in cascade: their evidence fact was retracted or superseded.
// params: $agent_id string
// returns: p path (Entity)-[RELATES_TO]->(Entity), evidence fact text, when and why
MATCH p = (a:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(b:Entity)
WHERE r.invalidated_at IS NOT NULL OR r.valid_to IS NOT NULL
OPTIONAL MATCH (f:Fact {agent_id: $agent_id, id: r.evidence_fact_id})
RETURN p, r.type AS relationship, f.text AS evidence,
       coalesce(r.invalidated_at, r.valid_to) AS ended_at,
       CASE WHEN r.invalidated_at IS NOT NULL THEN 'invalidated' ELSE 'ended' END AS how
ORDER BY ended_at DESC
