// NOOP decisions: an already-known fact was confirmed again.
// params: $agent_id string, $now datetime, $rows list<{id string, count int}>
// returns: id string, reinforcement_count int
UNWIND $rows AS row
MATCH (f:Fact {id: row.id, agent_id: $agent_id})
SET f.reinforcement_count = coalesce(f.reinforcement_count, 1) + row.count,
    f.last_confirmed_at = $now
RETURN f.id AS id, f.reinforcement_count AS reinforcement_count
