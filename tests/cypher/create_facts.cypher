// Test helper: create bare facts with embeddings for one agent.
// params: $agent_id string, $rows list<{text string, embedding list<float>}>
// returns: created int
UNWIND $rows AS row
CREATE (f:Fact {id: randomUUID(), agent_id: $agent_id, text: row.text, embedding: row.embedding,
                created_at: datetime(), valid_from: datetime()})
RETURN count(f) AS created
