// Active relationships leaving the message's entities with the single-valued types the message gives them (the ones a new target supersedes): only the (source, type) pairs of the message.
// params: $agent_id string, $rows list<{key string, type string}>
// returns: id string, source_key string, target_key string, type string, evidence_fact_id string
// The source is pinned to the unique (agent_id, key) lookup: left to itself the planner may scan
// an Entity index and filter (work growing with the database), or seek the agent's entities.
UNWIND $rows AS row
MATCH (s:Entity {agent_id: $agent_id, key: row.key})
USING INDEX SEEK s:Entity(agent_id, key)
MATCH (s)-[r:RELATES_TO]->(t:Entity)
WHERE r.type = row.type AND r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN r.id AS id, s.key AS source_key, t.key AS target_key, r.type AS type,
       r.evidence_fact_id AS evidence_fact_id
