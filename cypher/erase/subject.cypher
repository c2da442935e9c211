// A subject to erase: the entity, the entities merged into it, their names and aliases, and every fact about them.
// params: $agent_id string, $key string
// returns: keys list<string>, names list<string>, fact_ids list<string> (no row: no such entity)
MATCH (e:Entity {agent_id: $agent_id, key: $key})
OPTIONAL MATCH (m:Entity {agent_id: $agent_id}) WHERE m.merged_into = $key
WITH e, collect(m) AS merged
WITH [e] + merged AS ents
CALL (ents) {
  UNWIND ents AS x
  OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(x)
  RETURN collect(DISTINCT a.text) AS aliases
}
CALL (ents) {
  UNWIND ents AS x
  OPTIONAL MATCH (f:Fact)-[:ABOUT]->(x)
  RETURN collect(DISTINCT f.id) AS about
}
CALL (ents) {
  UNWIND ents AS x
  OPTIONAL MATCH (f:Fact {agent_id: $agent_id, subject_key: x.key})
  RETURN collect(DISTINCT f.id) AS subject
}
RETURN [x IN ents | x.key] AS keys, [x IN ents | x.name] + aliases AS names,
       about + [i IN subject WHERE NOT i IN about] AS fact_ids
