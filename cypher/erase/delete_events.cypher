// Delete a batch of events (messages) with their relationships.
// params: $agent_id string, $ids list<string> (one batch)
// returns: deleted int
UNWIND $ids AS eid
MATCH (ev:Event {id: eid}) WHERE ev.agent_id = $agent_id
DETACH DELETE ev
RETURN count(*) AS deleted
