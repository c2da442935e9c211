// Facts the given fact causes (outgoing CAUSES links), strongest first.
// params: $agent_id string, $fact_id string, $active_only bool
// returns: id, text, strength, active
MATCH (:Fact {id: $fact_id, agent_id: $agent_id})-[r:CAUSES]->(e:Fact {agent_id: $agent_id})
WITH e, r, (e.valid_to IS NULL AND e.invalidated_at IS NULL) AS active
WHERE active OR NOT $active_only
RETURN e.id AS id, e.text AS text, coalesce(r.strength, 0.5) AS strength, active
ORDER BY strength DESC, id
