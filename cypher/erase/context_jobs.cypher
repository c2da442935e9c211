// The agent's jobs whose payload holds one of $fragments (the JSON-escaped start of an erased message): later writes that kept it as an earlier message.
// params: $agent_id string, $fragments list<string>
// returns: id string, payload string
MATCH (j:Job {agent_id: $agent_id})
WHERE j.payload IS NOT NULL AND any(x IN $fragments WHERE j.payload CONTAINS x)
RETURN j.id AS id, j.payload AS payload
