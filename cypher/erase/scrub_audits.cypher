// Replace the text of audit records by its hash (ids, action and time stay).
// params: $rows list<{id string, text_hash string|null, target_id string|null}>
// returns: scrubbed int
UNWIND $rows AS row
MATCH (a:Audit {id: row.id})
SET a.text = null, a.reason = null, a.blocked_reason = null,
    a.text_hash = coalesce(row.text_hash, a.text_hash),
    a.target_id = row.target_id, a.erased_at = datetime()
RETURN count(a) AS scrubbed
