// Drop erased facts from relationship evidence; delete relationships evidenced only by them.
// params: $agent_id string, $fact_ids list<string>
// returns: deleted int, updated int
MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO]->()
WITH r, coalesce(r.evidence_fact_ids, [x IN [r.evidence_fact_id] WHERE x IS NOT NULL]) AS ev
WHERE any(x IN ev WHERE x IN $fact_ids)
WITH r, [x IN ev WHERE NOT x IN $fact_ids] AS kept
CALL (r, kept) {
  WITH r, kept WHERE size(kept) = 0
  DELETE r
  RETURN 1 AS deleted, 0 AS updated
  UNION
  WITH r, kept WHERE size(kept) > 0
  SET r.evidence_fact_ids = kept, r.evidence_fact_id = kept[size(kept) - 1]
  RETURN 0 AS deleted, 1 AS updated
}
RETURN sum(deleted) AS deleted, sum(updated) AS updated
