// Test helper (read tests): create (:Observation) nodes for one agent.
// params: $agent_id string, $rows list<{id string, text string, kind string, embedding list<float>}>
// returns: created int
// An AgentStats counter of the agent, if it has one, follows (read/agent_counts).
UNWIND $rows AS row
CREATE (o:Observation {id: row.id, agent_id: $agent_id, text: row.text, kind: row.kind,
                       embedding: row.embedding, created_at: datetime(), updated_at: datetime()})
WITH count(o) AS created
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.observations = s.observations + created
RETURN created
