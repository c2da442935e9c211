// Async write, raw-first: store the message as an Event (MERGE on id: a retried call with the
// params: $agent_id string, $id string, $props map {text, speaker, occurred_at, ingested_at, thread_id, source, embedding, content_hash}
// returns: id string, created bool
// same idempotency key finds the event it already stored). A new event is marked
// :PendingExtraction until its extraction commits.
// Every node it creates adds one to the agent's AgentStats counter (read/agent_counts), itself
// created on first use from the agent's current counts.
MERGE (s:AgentStats {agent_id: $agent_id})
  ON CREATE SET s.counting = true
WITH s
CALL (s) {
  WITH s
  WHERE s.counting
  SET s.facts = COUNT { (x:Fact {agent_id: $agent_id}) },
      s.events = COUNT { (x:Event {agent_id: $agent_id}) },
      s.observations = COUNT { (x:Observation {agent_id: $agent_id}) }
  REMOVE s.counting
}
MERGE (ev:Event {id: $id})
  ON CREATE SET ev += $props, ev.agent_id = $agent_id, ev._new = true, ev:PendingExtraction,
                s.events = s.events + 1
WITH ev, coalesce(ev._new, false) AS created
REMOVE ev._new
RETURN ev.id AS id, created
