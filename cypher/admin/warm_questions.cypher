// Questions for the read-path warm-up (graph/memory/read/warmup.py): a few current facts of each given agent, their texts and stored vectors, with the model the agent's vectors come from. Reads only.
// params: $agents list<string>, $per_agent int
// returns: agent_id string, embedder string|null, texts list<string>, vectors list<list<float>>
UNWIND $agents AS a
CALL (a) {
  MATCH (f:Fact {agent_id: a})
  WHERE f.embedding IS NOT NULL AND f.valid_to IS NULL AND f.invalidated_at IS NULL
  WITH f LIMIT $per_agent
  RETURN collect(f.text) AS texts, collect(f.embedding) AS vectors
}
OPTIONAL MATCH (e:AgentEmbedder {agent_id: a})
RETURN a AS agent_id, e.embedder AS embedder, texts, vectors
