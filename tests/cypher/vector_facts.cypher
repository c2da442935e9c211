// Tests and benches: plain visible facts with caller vectors, many agents at once (no entities, no events).
// params: $rows list<{id string, agent_id string, text string, embedding list<float>}>
// returns: created int
UNWIND $rows AS r
CREATE (f:Fact {id: r.id, agent_id: r.agent_id, text: r.text, embedding: r.embedding,
                confidence: 0.9, importance: 0.5, reinforcement_count: 0, created_at: datetime()})
RETURN count(f) AS created
