// Entity centrality without GDS: active relationships and fact mentions, scaled to 0..1.
// params: $agent_id string
// returns: updated int
MATCH (e:Entity {agent_id: $agent_id})
WHERE e.merged_into IS NULL
OPTIONAL MATCH (e)-[r:RELATES_TO]-(:Entity)
  WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
WITH e, count(r) AS rels
OPTIONAL MATCH (f:Fact)-[:ABOUT]->(e)
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
WITH e, rels, count(f) AS facts
WITH e, rels + facts AS degree
WITH collect({e: e, degree: degree}) AS all, max(degree) AS top
UNWIND all AS item
WITH item.e AS e, CASE WHEN top > 0 THEN toFloat(item.degree) / top ELSE 0.0 END AS centrality
SET e.centrality = centrality
RETURN count(e) AS updated
