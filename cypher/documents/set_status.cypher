// Set a document's status (failed fetches keep the reason).
// params: $agent_id string, $id string, $status string, $error string|null
// returns: id string
MATCH (d:Document {id: $id, agent_id: $agent_id})
SET d.status = $status, d.error = $error
RETURN d.id AS id
