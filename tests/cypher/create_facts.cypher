// Test helper: create bare facts with embeddings for one agent.
// params: $agent_id string, $rows list<{text string, embedding list<float>}>
// returns: created int
// An AgentStats counter of the agent, if it has one, follows (read/agent_counts).
UNWIND $rows AS row
CREATE (f:Fact {id: randomUUID(), agent_id: $agent_id, text: row.text, embedding: row.embedding,
                created_at: datetime(), valid_from: datetime()})
WITH count(f) AS created
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.facts = s.facts + created
RETURN created
