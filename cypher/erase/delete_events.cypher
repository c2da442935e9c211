// Delete a batch of events (messages) with their relationships.
// params: $agent_id string, $ids list<string> (one batch)
// returns: deleted int
// Subtracts what it deletes from the agent's AgentStats counter (read/agent_counts), if there is one.
UNWIND $ids AS eid
MATCH (ev:Event {id: eid}) WHERE ev.agent_id = $agent_id
DETACH DELETE ev
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.events = s.events - deleted
RETURN deleted
