// PageRank over an agent's active entity graph with GDS (only called when GDS is installed).
// params: $agent_id string, $graph_name string
// returns: updated int
MATCH (s:Entity {agent_id: $agent_id})
WHERE s.merged_into IS NULL
OPTIONAL MATCH (s)-[r:RELATES_TO]->(t:Entity {agent_id: $agent_id})
  WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
WITH gds.graph.project($graph_name, s, t) AS g
CALL gds.pageRank.stream($graph_name) YIELD nodeId, score
WITH gds.util.asNode(nodeId) AS e, score
WITH collect({e: e, score: score}) AS all, max(score) AS top
CALL gds.graph.drop($graph_name, false) YIELD graphName
UNWIND all AS item
WITH item.e AS e, CASE WHEN top > 0 THEN item.score / top ELSE 0.0 END AS centrality
SET e.centrality = centrality, e.pagerank_at = datetime()
RETURN count(e) AS updated
