// Version chain of a fact: every version reachable over SUPERSEDES in both directions, oldest first.
// params: $agent_id string, $fact_id string
// returns: id, text, valid_from, valid_to, invalidated_at, created_at, supersedes list<string>
MATCH (f:Fact {id: $fact_id, agent_id: $agent_id})
OPTIONAL MATCH (newer:Fact)-[:SUPERSEDES*1..50]->(f)
OPTIONAL MATCH (f)-[:SUPERSEDES*1..50]->(older:Fact)
WITH f, collect(DISTINCT newer) + collect(DISTINCT older) AS others
UNWIND [f] + others AS v
WITH DISTINCT v
OPTIONAL MATCH (v)-[:SUPERSEDES]->(prev:Fact)
RETURN v.id AS id, v.text AS text, v.valid_from AS valid_from, v.valid_to AS valid_to,
       v.invalidated_at AS invalidated_at, v.created_at AS created_at,
       collect(prev.id) AS supersedes
ORDER BY v.created_at, v.id
