// Test helper: one bare entity of an agent (so the scheduler counts the agent as active).
// params: $agent_id string, $key string
// returns: id string
CREATE (e:Entity {id: randomUUID(), agent_id: $agent_id, key: $key, name: $key,
                  created_at: datetime()})
RETURN e.id AS id
