// Evidence of facts: the messages (events) each one was extracted from (FROM_EVENT), oldest first.
// params: $agent_id string, $ids list<string>, $per_fact int
// returns: id string, events list<event map (no embedding)>, at most $per_fact each
UNWIND $ids AS id
MATCH (f:Fact {agent_id: $agent_id, id: id})
CALL (f) {
  MATCH (f)-[:FROM_EVENT]->(ev:Event)
  // ev's agent in a form no index answers: the plan expands from f, never reads every event
  // of the agent to check its FROM_EVENT link
  WHERE ev.agent_id + '' = $agent_id
  WITH ev ORDER BY ev.occurred_at, ev.id LIMIT $per_fact
  RETURN collect(ev {.id, .text, .speaker, .occurred_at, .ingested_at, .thread_id, .source,
                     .emotion, .intensity, .energy}) AS events
}
RETURN id, events
