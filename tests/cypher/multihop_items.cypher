// Bench helper (read): the vectors of one agent's active facts and of its events (multi-hop benchmark: the exact vector ranker and the dense passage scores of personalized PageRank).
// params: $agent_id string
// returns: id string, embedding list<float>
MATCH (n {agent_id: $agent_id})
WHERE (n:Fact AND n.valid_to IS NULL AND n.invalidated_at IS NULL OR n:Event)
  AND n.embedding IS NOT NULL
RETURN n.id AS id, n.embedding AS embedding
ORDER BY id
