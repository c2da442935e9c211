// Cascade invalidation: a relationship whose newest evidence fact was closed keeps the next one.
// params: $agent_id string, $fact_ids list<string>, $now datetime
// returns: id string, type string, source_key string, target_key string (the closed ones)
// It stays open while another of its evidence facts (evidence_fact_ids) is still active, which
// becomes its evidence; with none left it is closed too.
UNWIND $fact_ids AS fid
MATCH (s:Entity)-[r:RELATES_TO {evidence_fact_id: fid}]->(t:Entity)
WHERE r.agent_id = $agent_id AND r.valid_to IS NULL AND r.invalidated_at IS NULL
CALL (r) {
  UNWIND coalesce(r.evidence_fact_ids, []) AS other
  WITH other WHERE NOT other IN $fact_ids
  OPTIONAL MATCH (f:Fact {id: other})
  WHERE f.agent_id = $agent_id AND f.valid_to IS NULL AND f.invalidated_at IS NULL
  WITH other, f WHERE f IS NOT NULL
  RETURN collect(other) AS remaining
}
FOREACH (_ IN CASE WHEN size(remaining) > 0 THEN [1] ELSE [] END |
  SET r.evidence_fact_id = last(remaining), r.evidence_fact_ids = remaining)
FOREACH (_ IN CASE WHEN size(remaining) = 0 THEN [1] ELSE [] END |
  SET r.valid_to = $now, r.invalidated_at = $now)
WITH s, r, t, remaining WHERE size(remaining) = 0
RETURN r.id AS id, r.type AS type, s.key AS source_key, t.key AS target_key
