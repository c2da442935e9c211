// Mark a merge candidate merged/rejected.
// params: $agent_id string, $id string, $status string, $note string|null
// returns: id string
MATCH (m:MergeCandidate {id: $id, agent_id: $agent_id})
SET m.status = $status, m.resolved_at = datetime(), m.resolution_note = $note
RETURN m.id AS id
