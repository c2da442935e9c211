// Write a batch of imported fact-to-fact links: SUPERSEDES (new -> old) and CAUSES {props}.
// params: $agent_id string, $rows list<{id string, supersedes list<string>, causes list<{id, props}>}>
// returns: written int
UNWIND $rows AS row
MATCH (f:Fact {id: row.id, agent_id: $agent_id})
CALL (f, row) {
  UNWIND row.supersedes AS oid
  MATCH (old:Fact {id: oid, agent_id: $agent_id})
  MERGE (f)-[:SUPERSEDES]->(old)
  RETURN count(*) AS supersedes
}
CALL (f, row) {
  UNWIND row.causes AS c
  MATCH (eff:Fact {id: c.id, agent_id: $agent_id})
  MERGE (f)-[r:CAUSES]->(eff)
  SET r += c.props
  RETURN count(*) AS causes
}
RETURN count(f) AS written
