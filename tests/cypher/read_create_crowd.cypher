// Test helper (multi-tenant read tests): bulk-create bare active facts for many agents with given embeddings.
// params: $rows list<{id string, agent_id string, text string, embedding list<float>}>, $at datetime
// returns: created int
UNWIND $rows AS row
CREATE (f:Fact {id: row.id, agent_id: row.agent_id, text: row.text, embedding: row.embedding,
                subject_key: 'thing:crowd', kind: 'fact', confidence: 0.9, importance: 0.5,
                reinforcement_count: 1, created_at: $at, valid_from: $at})
RETURN count(f) AS created
