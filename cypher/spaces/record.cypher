// Set the embedding model of an agent's vectors (after `hippograph reembed` re-embedded them).
// params: $agent_id string, $embedder string
// returns: embedder string
MERGE (s:AgentEmbedder {agent_id: $agent_id})
SET s.embedder = $embedder, s.since = datetime()
RETURN s.embedder AS embedder
