// Async write, raw-first: store the message as an Event (MERGE on id: a retried call with the
// params: $agent_id string, $id string, $props map {text, speaker, occurred_at, ingested_at, thread_id, source, embedding, content_hash}
// returns: id string, created bool
// same idempotency key finds the event it already stored). A new event is marked
// :PendingExtraction until its extraction commits.
MERGE (ev:Event {id: $id})
  ON CREATE SET ev += $props, ev.agent_id = $agent_id, ev._new = true, ev:PendingExtraction
WITH ev, coalesce(ev._new, false) AS created
REMOVE ev._new
RETURN ev.id AS id, created
