// Bench helper (read): every fact of one agent (active or not) with the events it came from (FROM_EVENT provenance).
// params: $agent_id string
// returns: id string, text string, active boolean, mirror boolean, event_ids list<string>
MATCH (f:Fact {agent_id: $agent_id})
OPTIONAL MATCH (f)-[:FROM_EVENT]->(e:Event)
WITH f, collect(e.id) AS event_ids
RETURN f.id AS id, f.text AS text,
       (f.valid_to IS NULL AND f.invalidated_at IS NULL) AS active,
       coalesce(f.source_context = 'inferred_from_relation', false) AS mirror,
       event_ids
ORDER BY f.created_at, f.id
