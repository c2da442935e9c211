// Word-boundary alias lookup: which of these folded names are known aliases of the agent.
// params: $agent_id string, $norms list<string>
// returns: norm string, text string, key string, name string, type string, profile_text string
UNWIND $norms AS norm
MATCH (a:Alias {agent_id: $agent_id, norm: norm})-[:ALIAS_OF]->(e:Entity)
RETURN a.norm AS norm, a.text AS text, e.key AS key, e.name AS name, e.type AS type,
       e.profile_text AS profile_text
