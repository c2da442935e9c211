// Take the write locks of the existing facts this transaction closes or reinforces, in the
// given (sorted) order; write/recheck_facts then reads their committed state.
// params: $agent_id string, $ids list<string> (sorted)
// returns: locked int
UNWIND $ids AS fid
MATCH (f:Fact {id: fid, agent_id: $agent_id})
SET f._lock = true
REMOVE f._lock
RETURN count(f) AS locked
