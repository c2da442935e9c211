// Record duplicate-entity candidates (a decided candidate keeps its status).
// params: $agent_id string, $rows list<{id, keep_key, drop_key, confidence float, reason}>
// returns: id string, status string, created bool
UNWIND $rows AS row
MERGE (m:MergeCandidate {id: row.id})
  ON CREATE SET m.agent_id = $agent_id, m.keep_key = row.keep_key, m.drop_key = row.drop_key,
                m.status = 'open', m.created_at = datetime(), m._new = true
WITH m, row
SET m.confidence = CASE WHEN m.status = 'open' THEN row.confidence ELSE m.confidence END,
    m.reason = CASE WHEN m.status = 'open' THEN row.reason ELSE m.reason END,
    m.updated_at = datetime()
WITH m, coalesce(m._new, false) AS created
REMOVE m._new
RETURN m.id AS id, m.status AS status, created
