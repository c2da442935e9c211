// Delete the observations derived from erased facts or whose text names an erased name (consolidation derives them again from what remains).
// params: $agent_id string, $fact_ids list<string>, $patterns list<string> (whole-word regexes of the erased names)
// returns: deleted int
// Subtracts what it deletes from the agent's AgentStats counter (read/agent_counts), if there is one.
MATCH (o:Observation {agent_id: $agent_id})
WHERE EXISTS { MATCH (o)-[:DERIVED_FROM]->(f:Fact) WHERE f.id IN $fact_ids }
   OR any(t IN $patterns WHERE (o.text) =~ t)
DETACH DELETE o
WITH count(*) AS deleted
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.observations = s.observations - deleted
RETURN deleted
