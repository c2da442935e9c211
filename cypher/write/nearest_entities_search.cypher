// Entity resolution candidates per name through in-index filtered vector search (Cypher 25 SEARCH, Neo4j 2026.01+, entity index built WITH [n.agent_id]): this agent's top-$beam entities whatever the number of other agents (every hit is the agent's: fetched = mine), + person alias prefix matches (alias_agent_norm index). Same rows as write/nearest_entities_index; the caller grows $beam while a name has fewer than $k live hits above $min_score.
// params: $agent_id string, $rows list<{index int, norm string, embedding list<float>}>, $beam int, $k int, $min_score float (index scale (1+cos)/2)
// returns: index int, fetched int (this agent's hits), floor float (lowest hit score), mine int (= fetched), near list<{key string, name string, type string, similarity float (raw cosine)}>, prefix list<{key, name, type, similarity 0.0}>
CYPHER 25
UNWIND $rows AS row
CALL (row) {
  MATCH (node:Entity)
    SEARCH node IN (VECTOR INDEX entity_embedding FOR row.embedding WHERE node.agent_id = $agent_id LIMIT $beam)
    SCORE AS score
  WITH count(node) AS fetched, min(score) AS floor,
       collect(CASE WHEN score >= $min_score AND node.merged_into IS NULL
                    THEN {e: node, score: score} END) AS found
  RETURN fetched, floor, fetched AS mine,
         [h IN found[..$k] | {key: h.e.key, name: h.e.name, type: h.e.type, similarity: 2 * h.score - 1}] AS near
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
