// Node counts per label and relationship counts per type of one agent (demo status, tests).
// params: $agent_id string
// returns: label string, nodes int, rels int (one row per label; rels counts outgoing edges)
MATCH (n {agent_id: $agent_id})
OPTIONAL MATCH (n)-[r]->()
WITH CASE WHEN n:Entity THEN 'Entity' ELSE labels(n)[0] END AS label, n, count(r) AS out
RETURN label, count(n) AS nodes, sum(out) AS rels
ORDER BY label
