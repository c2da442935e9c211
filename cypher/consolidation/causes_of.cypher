// Facts that cause the given fact (incoming CAUSES links), strongest first.
// params: $agent_id string, $fact_id string, $active_only bool
// returns: id, text, strength, active
MATCH (c:Fact {agent_id: $agent_id})-[r:CAUSES]->(:Fact {id: $fact_id, agent_id: $agent_id})
WITH c, r, (c.valid_to IS NULL AND c.invalidated_at IS NULL) AS active
WHERE active OR NOT $active_only
RETURN c.id AS id, c.text AS text, coalesce(r.strength, 0.5) AS strength, active
ORDER BY strength DESC, id
