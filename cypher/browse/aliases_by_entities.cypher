// Aliases of several entities (DataLoader batch).
// params: $agent_id string, $keys list<string>
// returns: key string, aliases list<string> (alias texts, sorted)
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e)
WITH key, a ORDER BY a.text
RETURN key, [t IN collect(a.text) WHERE t IS NOT NULL] AS aliases
