// The entities a merge names, with the entity each was already merged into (null: not merged).
// params: $agent_id string, $keys list<string>
// returns: key string, merged_into string or null
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.key IN $keys
RETURN e.key AS key, e.merged_into AS merged_into
