// Clear the profiles and summaries of entities (they were derived from erased facts; the profile job writes them again).
// params: $agent_id string, $keys list<string>
// returns: key string
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
SET e.profile_text = null, e.summary_text = null, e.profile_refreshed_at = null,
    e.profile_source = null
RETURN e.key AS key
