// Entities of one agent by key (DataLoader batch).
// params: $agent_id string, $keys list<string>
// returns: entity map (no embedding) for every key that exists
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
RETURN e {.key, .name, .type, .profile_text, .profile_refreshed_at, .summary_text, .mentions,
          .importance, .source, .created_at, .updated_at, .merged_into} AS entity
