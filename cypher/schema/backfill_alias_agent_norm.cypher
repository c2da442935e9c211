// Fill Alias.agent_norm (schema version 10) on up to $batch aliases written before it; graph/schema.py runs it until it updates none.
// params: $batch int
// returns: updated int
MATCH (a:Alias)
WHERE a.agent_norm IS NULL AND a.agent_id IS NOT NULL AND a.norm IS NOT NULL
WITH a LIMIT $batch
SET a.agent_norm = toString(size(a.agent_id)) + ':' + a.agent_id + ':' + a.norm
RETURN count(a) AS updated
