// Test helper: what a database's memory holds, per agent and label: nodes, their properties and outgoing relationships (the test command's isolation check compares two of these). Job bookkeeping is left out: a running server's scheduler adds it without any request.
// params: none
// returns: agent string, label string, nodes int, properties int, rels int
MATCH (n)
WHERE n.agent_id IS NOT NULL
  AND NOT (n:Job OR n:JobDedup OR n:SchedulerLease OR n:Audit OR n:MergeCandidate OR n:AgentStats)
OPTIONAL MATCH (n)-[r]->()
WITH n.agent_id AS agent, CASE WHEN n:Entity THEN 'Entity' ELSE labels(n)[0] END AS label, n, count(r) AS out
RETURN agent, label, count(n) AS nodes, sum(size(keys(n))) AS properties, sum(out) AS rels
ORDER BY agent, label
