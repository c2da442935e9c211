// Register an import's aliases, first write wins per (agent_id, norm): an alias never moves.
// params: $agent_id string, $now datetime, $rows list<{norm string, text string, key string}>
// returns: norm string, key string (the entity the alias points to after this write)
// The hint keeps the entity lookup on the (agent_id, key) constraint: the planner may
// otherwise pick the agent_id index and scan every entity of the agent per row.
UNWIND $rows AS row
MATCH (e:Entity {agent_id: $agent_id, key: row.key})
  USING INDEX SEEK e:Entity(agent_id, key)
MERGE (a:Alias {agent_id: $agent_id, norm: row.norm})
ON CREATE SET a.text = row.text, a.created_at = $now,
              a.agent_norm = toString(size($agent_id)) + ':' + $agent_id + ':' + row.norm  // the prefix seek's key (schema/v010_alias_prefix)
WITH a, e, row
OPTIONAL MATCH (a)-[:ALIAS_OF]->(owner:Entity)
WITH a, e, row, head(collect(owner)) AS owner
FOREACH (_ IN CASE WHEN owner IS NULL THEN [1] ELSE [] END | MERGE (a)-[:ALIAS_OF]->(e))
RETURN row.norm AS norm, coalesce(owner.key, e.key) AS key
