// Take the write lock of the event whose extraction this transaction commits (the next
// statement, write/claim_extraction, then reads the committed state).
// params: $agent_id string, $event_id string
// returns: id string
MATCH (ev:Event {id: $event_id, agent_id: $agent_id})
SET ev._lock = true
REMOVE ev._lock
RETURN ev.id AS id
