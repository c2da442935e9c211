// Write a batch of imported aliases and link each to the entities it names.
// params: $agent_id string, $rows list<{norm string, entity_keys list<string>, props map}>
// returns: written int
UNWIND $rows AS row
MERGE (a:Alias {agent_id: $agent_id, norm: row.norm})
SET a += row.props, a.agent_id = $agent_id,
    a.agent_norm = toString(size($agent_id)) + ':' + $agent_id + ':' + row.norm  // the prefix seek's key (schema/v010_alias_prefix)
WITH a, row
CALL (a, row) {
  UNWIND row.entity_keys AS key
  MATCH (e:Entity {agent_id: $agent_id, key: key})
  MERGE (a)-[:ALIAS_OF]->(e)
  RETURN count(*) AS linked
}
RETURN count(a) AS written
