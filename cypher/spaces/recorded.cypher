// The embedding model recorded for an agent's vectors (no row: the agent has no record yet).
// params: $agent_id string
// returns: embedder string
MATCH (s:AgentEmbedder {agent_id: $agent_id})
RETURN s.embedder AS embedder
