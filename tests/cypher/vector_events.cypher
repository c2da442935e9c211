// Tests and benches: plain events with caller vectors, many agents at once (no facts, no threads).
// params: $rows list<{id string, agent_id string, text string, embedding list<float>}>
// returns: created int
UNWIND $rows AS r
CREATE (v:Event {id: r.id, agent_id: r.agent_id, text: r.text, speaker: 'tester', embedding: r.embedding,
                 occurred_at: datetime(), ingested_at: datetime()})
RETURN count(v) AS created
