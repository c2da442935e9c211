// An agent's audit records with what an erase leaves of them.
// params: $agent_id string
// returns: id, action, fact_id, target_id, text, reason, text_hash
MATCH (a:Audit {agent_id: $agent_id})
RETURN a.id AS id, a.action AS action, a.fact_id AS fact_id, a.target_id AS target_id,
       a.text AS text, a.reason AS reason, a.text_hash AS text_hash
