// Store raw messages (the immutable audit trail); MERGE on id makes retries idempotent.
// params: $agent_id string, $rows list<{id string, props map}>
// returns: id string
UNWIND $rows AS row
MERGE (ev:Event {id: row.id})
ON CREATE SET ev += row.props, ev.agent_id = $agent_id
RETURN ev.id AS id
