// Decay: flag active temporal facts past valid_until as stale (never deleted); un-flag facts
// whose valid_until moved back into the future.
// params: $agent_id string
// returns: flagged int, unflagged int
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.valid_until IS NOT NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL
WITH f, f.valid_until < datetime() AS expired, coalesce(f.stale, false) AS was
WHERE expired <> was
SET f.stale = expired, f.stale_at = CASE WHEN expired THEN datetime() ELSE null END
RETURN sum(CASE WHEN expired THEN 1 ELSE 0 END) AS flagged,
       sum(CASE WHEN expired THEN 0 ELSE 1 END) AS unflagged
