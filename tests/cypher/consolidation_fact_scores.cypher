// Importance and decay state of some facts.
// params: $agent_id string, $ids list<string>
// returns: id, importance, importance_base, stale
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.id IN $ids
RETURN f.id AS id, f.importance AS importance, f.importance_base AS importance_base,
       coalesce(f.stale, false) AS stale
