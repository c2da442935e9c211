// Corpus sizes that steer the search strategy (exact scan vs index over-fetch) and skip empty signals: the agent's facts, events and observations, and the database totals.
// params: $agent_id string
// returns: agent_facts int, agent_events int, agent_observations int, total_facts int, total_events int,
//          agent_glosses int (its facts with an English gloss), embedder string|null (the model recorded for the agent's vectors: graph/memory/spaces.py)
// The agent's sizes come from its AgentStats counter (one node, kept by every statement that creates or deletes those nodes); an agent without one (written before the counter existed) is counted through the agent_id indexes.
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
CALL (s) {
  WITH s
  WHERE s IS NOT NULL
  RETURN s.facts AS agent_facts, s.events AS agent_events, s.observations AS agent_observations
  UNION ALL
  WITH s
  WHERE s IS NULL
  RETURN COUNT { (f:Fact {agent_id: $agent_id}) } AS agent_facts,
         COUNT { (v:Event {agent_id: $agent_id}) } AS agent_events,
         COUNT { (o:Observation {agent_id: $agent_id}) } AS agent_observations
}
CALL {
  MATCH (f:Fact)
  RETURN count(f) AS total_facts
}
CALL {
  MATCH (v:Event)
  RETURN count(v) AS total_events
}
CALL {
  OPTIONAL MATCH (e:AgentEmbedder {agent_id: $agent_id})
  RETURN e.embedder AS embedder
}
CALL {
  // the agent's facts with an English gloss (schema/v014_fact_gloss: the index holds only
  // those, so an agent without glosses reads nothing)
  MATCH (g:Fact {agent_id: $agent_id})
  USING INDEX g:Fact(agent_id, gloss_language)
  WHERE g.gloss_language IS NOT NULL
  RETURN count(g) AS agent_glosses
}
RETURN agent_facts, agent_events, agent_observations, total_facts, total_events, agent_glosses,
       embedder
