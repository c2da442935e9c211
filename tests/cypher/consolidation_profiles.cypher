// Profiles of an agent's entities (by key, or all when $keys is null).
// params: $agent_id string, $keys list<string>|null
// returns: key, name, profile_text, profile_refreshed_at, profile_source
MATCH (e:Entity {agent_id: $agent_id})
WHERE $keys IS NULL OR e.key IN $keys
RETURN e.key AS key, e.name AS name, e.profile_text AS profile_text,
       e.profile_refreshed_at AS profile_refreshed_at, e.profile_source AS profile_source
ORDER BY e.key
