// One page of an agent's fact-to-fact links for export (versions a fact supersedes, facts it
// causes), in fact id order; only facts with at least one link.
// params: $agent_id string, $after string, $limit int
// returns: id string, supersedes list<string>, causes list<{id, props}>
MATCH (f:Fact {agent_id: $agent_id})
WHERE f.id > $after
WITH f ORDER BY f.id LIMIT $limit
CALL (f) {
  OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact)
  RETURN [i IN collect(old.id) WHERE i IS NOT NULL] AS supersedes
}
CALL (f) {
  OPTIONAL MATCH (f)-[c:CAUSES]->(eff:Fact)
  RETURN [x IN collect({id: eff.id, props: properties(c)}) WHERE x.id IS NOT NULL] AS causes
}
RETURN f.id AS id, supersedes, causes
ORDER BY id
