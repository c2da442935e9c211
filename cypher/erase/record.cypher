// The audit record of an erase: what kind of target, a hash of it, and counts; never text.
// params: $agent_id string, $id string, $target_hash string, $scope string, $counts string (JSON)
// returns: id string
CREATE (a:Audit {id: $id, agent_id: $agent_id, created_at: datetime(), action: 'ERASE',
                 applied: true, mode: null, scope: $scope, target_id: null, fact_id: null, event_id: null,
                 text: null, reason: null, text_hash: $target_hash, erased: $counts})
RETURN a.id AS id
