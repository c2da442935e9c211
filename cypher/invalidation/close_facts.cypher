// Close facts (UPDATE supersedes / DELETE retracts / forget): set valid_to and invalidated_at.
// params: $agent_id string, $ids list<string>, $now datetime
// returns: id string (only facts that were active)
UNWIND $ids AS fid
MATCH (f:Fact {id: fid, agent_id: $agent_id})
WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
SET f.valid_to = $now, f.invalidated_at = $now
RETURN f.id AS id
