// Enrich the message's event with the detected emotion (only fields still unset; text untouched).
// params: $agent_id string, $event_id string, $emotion string, $intensity float, $energy float
// returns: id string
MATCH (ev:Event {id: $event_id, agent_id: $agent_id})
SET ev.emotion = coalesce(ev.emotion, $emotion),
    ev.intensity = coalesce(ev.intensity, $intensity),
    ev.energy = coalesce(ev.energy, $energy)
RETURN ev.id AS id
