// How many live entities of each type the agents hold, with a few keys each (ontology check).
// params: $agent_ids list<string>
// returns: type string, n int, keys list<string> (at most 5)
UNWIND $agent_ids AS aid
MATCH (e:Entity {agent_id: aid}) WHERE e.merged_into IS NULL
RETURN e.type AS type, count(*) AS n, collect(e.key)[..5] AS keys
