// A subject to erase: the entity, the entities merged into it (at any depth of a merge chain: $merged), their names and aliases, and every fact about them.
// params: $agent_id string, $key string, $merged list<string> (keys of the entities merged into it, directly or through others)
// returns: keys list<string>, names list<string>, fact_ids list<string> (no row: no such entity)
MATCH (e:Entity {agent_id: $agent_id, key: $key})
CALL (e) {
  UNWIND $merged AS mk
  MATCH (m:Entity {agent_id: $agent_id, key: mk}) WHERE m <> e
  RETURN collect(m) AS merged
}
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
