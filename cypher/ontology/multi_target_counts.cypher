// Sources holding more than one active target of a relation type (what making the type single-valued would meet; ontology check).
// params: $agent_ids list<string>, $types list<string>
// returns: type string, sources int
UNWIND $agent_ids AS aid
MATCH (s:Entity {agent_id: aid})-[r:RELATES_TO]->(t:Entity)
WHERE r.type IN $types AND r.valid_to IS NULL AND r.invalidated_at IS NULL
WITH s, r.type AS type, count(DISTINCT t) AS targets
WHERE targets > 1
RETURN type, count(s) AS sources
