// Async write, raw-first: store the message as an Event (MERGE on id: a retried call with the
// params: $agent_id string, $id string, $props map {text, speaker, occurred_at, ingested_at, thread_id, source, embedding, content_hash}
// returns: id string, created bool
// same idempotency key finds the event it already stored). A new event is marked
// :PendingExtraction until its extraction commits.
// Every node it creates adds one to the agent's AgentStats counter (read/agent_counts), itself
// created on first use from the agent's current counts.
// `terms` (the keyword signal's field): the expression of schema/backfill_terms.
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
// The vector is written by db.create.setNodeVectorProperty (32-bit floats: the exact scan of a
// small agent's events reads it for every question), the only write of it.
WITH s, $props AS props
MERGE (ev:Event {id: $id})
  ON CREATE SET ev += props {.*, embedding: null}, ev.agent_id = $agent_id, ev._new = true,
                ev:PendingExtraction, s.events = s.events + 1,
                ev.terms = trim(reduce(t = '', w IN split(toLower(props.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
WITH ev, props, coalesce(ev._new, false) AS created
REMOVE ev._new
WITH ev, props, created
CALL (ev, props) {
  WITH ev, props WHERE props.embedding IS NOT NULL AND ev.embedding IS NULL
  CALL db.create.setNodeVectorProperty(ev, 'embedding', props.embedding)
}
RETURN ev.id AS id, created
