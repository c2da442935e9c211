// Active relationships of the given types leaving these entities (single-valued checks).
// params: $agent_id string, $keys list<string>, $types list<string>
// returns: id string, source_key string, target_key string, type string, evidence_fact_id string
UNWIND $keys AS key
MATCH (s:Entity {agent_id: $agent_id, key: key})-[r:RELATES_TO]->(t:Entity)
WHERE r.type IN $types AND r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN r.id AS id, s.key AS source_key, t.key AS target_key, r.type AS type,
       r.evidence_fact_id AS evidence_fact_id
