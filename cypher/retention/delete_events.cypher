// Delete up to $batch of an agent's messages stored before $cutoff (never one still waiting for its extraction); facts stay, without that provenance.
// params: $agent_id string, $cutoff datetime, $batch int
// returns: deleted int
// Subtracts what it deletes from the agent's AgentStats counter (read/agent_counts), if there is one.
MATCH (ev:Event {agent_id: $agent_id})
WHERE coalesce(ev.ingested_at, ev.occurred_at) < $cutoff AND NOT ev:PendingExtraction
WITH ev LIMIT $batch
DETACH DELETE ev
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.events = s.events - deleted
RETURN deleted
