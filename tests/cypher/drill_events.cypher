// Drills: one agent's events with the facts derived from each and the audit entries (decisions
// committed) that name it; a second commit of one extraction shows as extra audits.
// params: $agent_id string
// returns: id string, text string, facts int, audits int
MATCH (ev:Event {agent_id: $agent_id})
CALL (ev) { OPTIONAL MATCH (f:Fact)-[:FROM_EVENT]->(ev) RETURN count(f) AS facts }
CALL (ev) { OPTIONAL MATCH (a:Audit {agent_id: ev.agent_id, event_id: ev.id})
            RETURN count(a) AS audits }
RETURN ev.id AS id, ev.text AS text, facts, audits
