// How many active relationships of each type join each pair of entity types, with a few evidence facts each (ontology check).
// params: $agent_ids list<string>
// returns: type string, source_type string, target_type string, n int, facts list<string> (at most 5: the evidence fact's id, else the relationship's)
UNWIND $agent_ids AS aid
MATCH (s:Entity {agent_id: aid})-[r:RELATES_TO]->(t:Entity)
WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN r.type AS type, s.type AS source_type, t.type AS target_type, count(*) AS n,
       collect(coalesce(r.evidence_fact_id, r.id))[..5] AS facts
