// Store refreshed entity profiles.
// params: $agent_id string, $rows list<{key string, profile string, source string}>
// returns: key string
UNWIND $rows AS row
MATCH (e:Entity {agent_id: $agent_id, key: row.key})
SET e.profile_text = row.profile, e.profile_refreshed_at = datetime(),
    e.profile_source = row.source
RETURN e.key AS key
