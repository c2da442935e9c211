// Cascade invalidation: every active relationship whose evidence fact was closed is closed too.
// params: $agent_id string, $fact_ids list<string>, $now datetime
// returns: id string, type string, source_key string, target_key string
UNWIND $fact_ids AS fid
MATCH (s:Entity)-[r:RELATES_TO {evidence_fact_id: fid}]->(t:Entity)
WHERE r.agent_id = $agent_id AND r.valid_to IS NULL AND r.invalidated_at IS NULL
SET r.valid_to = $now, r.invalidated_at = $now
RETURN r.id AS id, r.type AS type, s.key AS source_key, t.key AS target_key
