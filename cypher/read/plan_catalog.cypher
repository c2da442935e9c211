// Planner catalog: the agent's entity types and the entities matching the query's n-grams (alias norm, key slug, first-name prefix, with its fact count to break a tie); corpus sizes are read/agent_counts.
// params: $agent_id string, $norms list<string>, $slugs list<{slug string, gram string}>, $prefixes list<string>
// returns: types list<string>, matches list<{key, name, type, via, matched, facts (prefix rows: the ABOUT degree, read from the degree store)}>
CALL {
  MATCH (e:Entity {agent_id: $agent_id})
  RETURN collect(DISTINCT e.type) AS types
}
CALL {
  UNWIND $norms AS n
  MATCH (:Alias {agent_id: $agent_id, norm: n})-[:ALIAS_OF]->(e:Entity)
  WHERE e.merged_into IS NULL
  RETURN collect({key: e.key, name: e.name, type: e.type, via: 'alias', matched: n}) AS by_alias
}
CALL {
  WITH types
  UNWIND types AS t
  UNWIND $slugs AS s
  MATCH (e:Entity {agent_id: $agent_id, key: t + ':' + s.slug})
  WHERE e.merged_into IS NULL
  RETURN collect({key: e.key, name: e.name, type: e.type, via: 'slug', matched: s.gram}) AS by_slug
}
CALL {
  WITH types
  UNWIND types AS t
  UNWIND $prefixes AS p
  MATCH (e:Entity {agent_id: $agent_id})
  WHERE e.key STARTS WITH t + ':' + p + '_' AND e.merged_into IS NULL
  RETURN collect({key: e.key, name: e.name, type: e.type, via: 'prefix', matched: p,
                  facts: COUNT { (e)<-[:ABOUT]-() }}) AS by_prefix
}
RETURN types, by_alias + by_slug + by_prefix AS matches
