// Planner catalog: the agent's entity types, entities matching the query's n-grams (alias norm, key slug, first-name prefix), corpus sizes.
// params: $agent_id string, $norms list<string>, $slugs list<{slug string, gram string}>, $prefixes list<string>
// returns: types list<string>, matches list<{key, name, type, via, matched}>, agent_facts int, agent_events int, agent_observations int, total_facts int, total_events int
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
  RETURN collect({key: e.key, name: e.name, type: e.type, via: 'prefix', matched: p}) AS by_prefix
}
CALL {
  MATCH (f:Fact {agent_id: $agent_id})
  RETURN count(f) AS agent_facts
}
CALL {
  MATCH (v:Event {agent_id: $agent_id})
  RETURN count(v) AS agent_events
}
CALL {
  MATCH (o:Observation {agent_id: $agent_id})
  RETURN count(o) AS agent_observations
}
CALL {
  MATCH (f:Fact)
  RETURN count(f) AS total_facts
}
CALL {
  MATCH (v:Event)
  RETURN count(v) AS total_events
}
RETURN types, by_alias + by_slug + by_prefix AS matches, agent_facts, agent_events,
       agent_observations, total_facts, total_events
