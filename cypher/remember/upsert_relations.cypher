// Create or reinforce imported relationships (RELATES_TO, semantic type in `type`); self-loops skipped.
// params: $agent_id string, $now datetime, $reinforce float, $rows list<{id, source_key, target_key, type, strength, confidence, valid_from, evidence_fact_id}>
// returns: id string, type string, source_key string, target_key string, created bool, strength float
// The hints keep both end lookups on the (agent_id, key) constraint, not the agent_id index.
UNWIND $rows AS row
MATCH (s:Entity {agent_id: $agent_id, key: row.source_key})
  USING INDEX SEEK s:Entity(agent_id, key)
MATCH (t:Entity {agent_id: $agent_id, key: row.target_key})
  USING INDEX SEEK t:Entity(agent_id, key)
WITH s, t, row WHERE s <> t
// Writing to the source node takes its lock, so concurrent messages cannot both create the edge.
SET s.updated_at = $now
WITH s, t, row
OPTIONAL MATCH (s)-[old:RELATES_TO {type: row.type}]->(t)
WHERE old.valid_to IS NULL AND old.invalidated_at IS NULL
WITH s, t, row, head(collect(old)) AS old
CALL (s, t, row, old) {
  WITH s, t, row, old WHERE old IS NULL
  CREATE (s)-[r:RELATES_TO {id: row.id, agent_id: $agent_id, type: row.type,
                            strength: row.strength, mentions: 1, confidence: row.confidence,
                            valid_from: coalesce(row.valid_from, $now), created_at: $now,
                            last_seen_at: $now, evidence_fact_id: row.evidence_fact_id,
                            evidence_fact_ids: [x IN [row.evidence_fact_id] WHERE x IS NOT NULL]
                           }]->(t)
  RETURN r, true AS created
  UNION
  WITH s, t, row, old WHERE old IS NOT NULL
  SET old.strength = CASE WHEN old.strength + $reinforce > 1.0 THEN 1.0
                          ELSE old.strength + $reinforce END,
      old.mentions = coalesce(old.mentions, 1) + 1,
      old.last_seen_at = $now,
      old.confidence = CASE WHEN row.confidence > old.confidence THEN row.confidence
                            ELSE old.confidence END,
      old.evidence_fact_id = coalesce(row.evidence_fact_id, old.evidence_fact_id),
      // Every supporting fact, oldest first: forgetting one keeps the relation while another
      // is active (invalidation/cascade_relationships).
      old.evidence_fact_ids = [x IN coalesce(old.evidence_fact_ids, [old.evidence_fact_id])
                               WHERE x IS NOT NULL AND (row.evidence_fact_id IS NULL
                                                        OR x <> row.evidence_fact_id)]
                              + [x IN [row.evidence_fact_id] WHERE x IS NOT NULL]
  RETURN old AS r, false AS created
}
RETURN r.id AS id, r.type AS type, s.key AS source_key, t.key AS target_key, created,
       r.strength AS strength
