// Test helper (export/import): an agent's memory graph shape, nodes per label and their outgoing relationships per type (bookkeeping labels left out).
// params: $agent string
// returns: label string, rel string|null, n int
MATCH (n {agent_id: $agent})
WHERE NOT n:Audit AND NOT n:WriteReceipt AND NOT n:Job AND NOT n:JobDedup
OPTIONAL MATCH (n)-[r]->()
RETURN CASE WHEN n:Entity THEN 'Entity' ELSE labels(n)[0] END AS label, type(r) AS rel, count(*) AS n
ORDER BY label, rel
