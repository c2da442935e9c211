// Test helper (multi-tenant read tests): bulk-create bare active facts for many agents with given embeddings.
// params: $rows list<{id string, agent_id string, text string, embedding list<float>}>, $at datetime
// returns: created int
// An AgentStats counter of the agent, if it has one, follows (read/agent_counts).
UNWIND $rows AS row
CREATE (f:Fact {id: row.id, agent_id: row.agent_id, text: row.text, embedding: row.embedding,
                subject_key: 'thing:crowd', kind: 'fact', confidence: 0.9, importance: 0.5,
                reinforcement_count: 1, created_at: $at, valid_from: $at})
SET f.terms = trim(reduce(t = '', w IN split(toLower(row.text), [' ', '.', ',']) | t + ' ' + left(w, 5)))
WITH row.agent_id AS agent, count(f) AS n
OPTIONAL MATCH (s:AgentStats {agent_id: agent})
SET s.facts = s.facts + n
RETURN sum(n) AS created
