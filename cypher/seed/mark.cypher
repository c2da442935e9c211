// Mark the demo seed as completely loaded for an agent.
// params: $agent_id string, $version int
// returns: version int
MERGE (m:HippographMeta {key: 'seed', agent_id: $agent_id})
ON CREATE SET m.loaded_at = datetime()
SET m.version = $version
RETURN m.version AS version
