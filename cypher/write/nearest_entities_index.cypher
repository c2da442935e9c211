// Entity resolution candidates per name through the entity vector index (large agents): the global top-row.k, this agent's live entities kept, + person alias prefix matches (alias_agent_norm index). The caller grows row.k while a name has fewer than $k hits and the global floor is still above $min_score.
// params: $agent_id string, $rows list<{index int, norm string, embedding list<float>, k int}>, $k int, $min_score float (index scale (1+cos)/2)
// returns: index int, fetched int (global hits), floor float (lowest global score), mine int (this agent's entities among the hits, any score), near list<{key string, name string, type string, similarity float (raw cosine)}>, prefix list<{key, name, type, similarity 0.0}>
UNWIND $rows AS row
CALL (row) {
  CALL db.index.vector.queryNodes('entity_embedding', row.k, row.embedding) YIELD node, score
  WITH count(node) AS fetched, min(score) AS floor,
       sum(CASE WHEN node.agent_id = $agent_id THEN 1 ELSE 0 END) AS mine,
       collect(CASE WHEN node.agent_id = $agent_id AND score >= $min_score
                    AND node.merged_into IS NULL THEN {e: node, score: score} END) AS found
  RETURN fetched, floor, mine, [h IN found[..$k] | {key: h.e.key, name: h.e.name, type: h.e.type,
                                             similarity: 2 * h.score - 1}] AS near
}
CALL (row) {
  OPTIONAL MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity {type: 'person'})
  USING INDEX SEEK a:Alias(agent_norm)
  // agent_norm (schema/v010_alias_prefix) can only be sought by its prefix: the (agent_id,
  // norm) constraint also allows seeking agent_id alone, which reads every alias of the
  // agent, and without the hint the planner may scan the whole index
  WHERE size(row.norm) >= 3 AND a.agent_norm STARTS WITH toString(size($agent_id)) + ':' + $agent_id + ':' + row.norm
    AND a.norm <> row.norm
  WITH e LIMIT $k
  RETURN [x IN collect(e) | {key: x.key, name: x.name, type: x.type, similarity: 0.0}] AS prefix
}
RETURN row.index AS index, fetched, floor, mine, near, prefix
