// Drills: one agent's entities by normalised name (duplicates show as n > 1).
// params: $agent_id string
// returns: name string, n int
MATCH (e:Entity {agent_id: $agent_id})
RETURN toLower(coalesce(e.name, e.key)) AS name, count(e) AS n
