// One event (message) of the agent, without its embedding.
// params: $agent_id string, $event_id string
// returns: event map
MATCH (ev:Event {id: $event_id, agent_id: $agent_id})
RETURN ev {.*, embedding: null} AS event
