// Entities of the agent with these exact keys (merged entities report their survivor).
// params: $agent_id string, $keys list<string>
// returns: key string, name string, type string, profile_text string, merged_into string
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
RETURN e.key AS key, e.name AS name, e.type AS type, e.profile_text AS profile_text,
       e.merged_into AS merged_into
