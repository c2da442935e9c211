// Corpus sizes that steer the search strategy (exact scan vs index over-fetch) and skip empty signals: the agent's facts, events and observations, and the database totals.
// params: $agent_id string
// returns: agent_facts int, agent_events int, agent_observations int, total_facts int, total_events int,
//          embedder string|null (the model recorded for the agent's vectors: graph/memory/spaces.py)
CALL {
  MATCH (f:Fact {agent_id: $agent_id})
  RETURN count(f) AS agent_facts
}
CALL {
  MATCH (v:Event {agent_id: $agent_id})
  RETURN count(v) AS agent_events
}
CALL {
  MATCH (o:Observation {agent_id: $agent_id})
  RETURN count(o) AS agent_observations
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
  OPTIONAL MATCH (s:AgentEmbedder {agent_id: $agent_id})
  RETURN s.embedder AS embedder
}
RETURN agent_facts, agent_events, agent_observations, total_facts, total_events, embedder
