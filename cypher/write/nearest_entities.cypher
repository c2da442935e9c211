// Entity resolution candidates per name, exact: cosine over every entity of the agent (agent_id index; small agents, see write/entity_scope) + person alias prefix matches.
// params: $agent_id string, $rows list<{index int, norm string, embedding list<float>}>, $k int, $min_similarity float
// returns: index int, key string, name string, type string, similarity float
UNWIND $rows AS row
CALL (row) {
  MATCH (e:Entity {agent_id: $agent_id})
  WHERE e.embedding IS NOT NULL AND e.merged_into IS NULL
  WITH e, 2 * vector.similarity.cosine(e.embedding, row.embedding) - 1 AS similarity
  WHERE similarity >= $min_similarity
  RETURN e.key AS key, e.name AS name, e.type AS type, similarity
  ORDER BY similarity DESC
  LIMIT $k
  UNION
  MATCH (a:Alias)-[:ALIAS_OF]->(e:Entity {type: 'person'})
  USING INDEX SEEK a:Alias(agent_norm)
  // agent_norm (schema/v010_alias_prefix) can only be sought by its prefix: the (agent_id,
  // norm) constraint also allows seeking agent_id alone, which reads every alias of the
  // agent, and without the hint the planner may scan the whole index
  WHERE size(row.norm) >= 3 AND a.agent_norm STARTS WITH toString(size($agent_id)) + ':' + $agent_id + ':' + row.norm
    AND a.norm <> row.norm
  RETURN e.key AS key, e.name AS name, e.type AS type, 0.0 AS similarity
  LIMIT $k
}
RETURN row.index AS index, key, name, type, max(similarity) AS similarity
