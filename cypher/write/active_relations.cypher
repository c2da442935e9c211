// Active relationships leaving the message's entities with the single-valued types the message gives them (the ones a new target supersedes): only the (source, type) pairs of the message.
// params: $agent_id string, $rows list<{key string, type string}>
// returns: id string, source_key string, target_key string, type string, evidence_fact_id string
// Lookups are pinned to the unique keys (USING INDEX SEEK): left to itself the planner may
// take the Entity(agent_id) index and filter the agent's entities per row, or scan an index.
UNWIND $rows AS row
MATCH (s:Entity {agent_id: $agent_id, key: row.key})
USING INDEX SEEK s:Entity(agent_id, key)
MATCH (s)-[r:RELATES_TO]->(t:Entity)
WHERE r.type = row.type AND r.valid_to IS NULL AND r.invalidated_at IS NULL
RETURN r.id AS id, s.key AS source_key, t.key AS target_key, r.type AS type,
       r.evidence_fact_id AS evidence_fact_id
