// Write re-scored importance (the original score is kept once as importance_base).
// params: $agent_id string, $rows list<{id string, importance float}>
// returns: updated int
UNWIND $rows AS row
MATCH (f:Fact {id: row.id, agent_id: $agent_id})
SET f.importance_base = coalesce(f.importance_base, f.importance, 0.5),
    f.importance = row.importance, f.importance_scored_at = datetime()
RETURN count(f) AS updated
