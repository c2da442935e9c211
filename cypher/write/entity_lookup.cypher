// Entity resolution's lookups in one statement: alias matches of the message's folded names (as write/match_aliases), the entities with the exact keys (as write/match_keys, merged ones report their survivor), and the agent's entities counted up to $max (a bounded read: the exact scan is chosen below that size).
// params: $agent_id string, $norms list<string>, $keys list<string>, $max int
// returns: aliases list<{norm, text, key, name, type, profile_text}>, found list<{key, name, type, profile_text, merged_into}>, agent_entities int (at most $max)
// Lookups are pinned to the unique keys (USING INDEX SEEK): left to itself the planner may
// take the Entity(agent_id) index and filter the agent's entities per row, or scan an index.
CALL () {
  UNWIND $norms AS norm
  MATCH (a:Alias {agent_id: $agent_id, norm: norm})
  USING INDEX SEEK a:Alias(agent_id, norm)
  MATCH (a)-[:ALIAS_OF]->(e:Entity)
  RETURN collect({norm: a.norm, text: a.text, key: e.key, name: e.name, type: e.type,
                  profile_text: e.profile_text}) AS aliases
}
CALL () {
  UNWIND $keys AS key
  MATCH (e:Entity {agent_id: $agent_id, key: key})
  USING INDEX SEEK e:Entity(agent_id, key)
  RETURN collect({key: e.key, name: e.name, type: e.type, profile_text: e.profile_text,
                  merged_into: e.merged_into}) AS found
}
CALL () {
  MATCH (e:Entity {agent_id: $agent_id})
  WITH e LIMIT $max
  RETURN count(e) AS agent_entities
}
RETURN aliases, found, agent_entities
