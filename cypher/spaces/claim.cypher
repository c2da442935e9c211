// Record the embedding model of an agent's vectors at its first write; returns the recorded one.
// params: $agent_id string, $embedder string
// returns: embedder string (the model recorded for the agent, possibly another than $embedder)
MERGE (s:AgentEmbedder {agent_id: $agent_id})
ON CREATE SET s.embedder = $embedder, s.since = datetime()
RETURN s.embedder AS embedder
