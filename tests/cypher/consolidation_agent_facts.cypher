// Every fact of an agent, active or closed (audits, tests and exports).
// params: $agent_id string
// returns: id, text, subject_key, kind, confidence, content_hash, active, reinforcement_count
MATCH (f:Fact {agent_id: $agent_id})
RETURN f.id AS id, f.text AS text, f.subject_key AS subject_key, f.kind AS kind,
       f.confidence AS confidence, f.content_hash AS content_hash,
       (f.valid_to IS NULL AND f.invalidated_at IS NULL) AS active,
       f.reinforcement_count AS reinforcement_count
ORDER BY f.text, f.id
