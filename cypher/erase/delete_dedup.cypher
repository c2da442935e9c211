// Delete the agent's job dedup slots whose key names an erased name (their job already went).
// params: $agent_id string, $patterns list<string> (whole-word regexes of the erased names)
// returns: deleted int
MATCH (d:JobDedup {agent_id: $agent_id})
WHERE any(t IN $patterns WHERE (d.key) =~ t)
DETACH DELETE d
RETURN count(*) AS deleted
