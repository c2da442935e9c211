// Test helper (read tests): create (:Observation) nodes for one agent.
// params: $agent_id string, $rows list<{id string, text string, kind string, embedding list<float>}>
// returns: created int
UNWIND $rows AS row
CREATE (o:Observation {id: row.id, agent_id: $agent_id, text: row.text, kind: row.kind,
                       embedding: row.embedding, created_at: datetime(), updated_at: datetime()})
RETURN count(o) AS created
