// Up to $batch of an agent's audit records written before $cutoff that still hold text (retention replaces it by a hash).
// params: $agent_id string, $cutoff datetime, $batch int
// returns: id string, text string, reason string, target_id string
MATCH (a:Audit {agent_id: $agent_id})
WHERE a.created_at < $cutoff
  AND (a.text IS NOT NULL OR a.reason IS NOT NULL OR a.blocked_reason IS NOT NULL)
RETURN a.id AS id, a.text AS text, a.reason AS reason, a.target_id AS target_id
LIMIT $batch
