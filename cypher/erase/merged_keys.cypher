// Keys of the agent's entities merged into one of $keys (one level of a merge chain; the caller repeats it until no new key comes back).
// params: $agent_id string, $keys list<string>
// returns: key string
MATCH (m:Entity {agent_id: $agent_id})
WHERE m.merged_into IN $keys
RETURN DISTINCT m.key AS key
