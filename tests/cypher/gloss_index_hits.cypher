// An agent's facts among the gloss vector index's nearest hits and in the glossed-facts range index (erase tests: nothing is left of an erased gloss).
// params: $agent_id string, $vector list<float>, $k int
// returns: vector_hits int, glossed int
CALL {
  CALL db.index.vector.queryNodes('fact_gloss_embedding', $k, $vector) YIELD node
  WITH node WHERE node.agent_id = $agent_id
  RETURN count(node) AS vector_hits
}
CALL {
  MATCH (f:Fact {agent_id: $agent_id})
  USING INDEX f:Fact(agent_id, gloss_language)
  WHERE f.gloss_language IS NOT NULL
  RETURN count(f) AS glossed
}
RETURN vector_hits, glossed
