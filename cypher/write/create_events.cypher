// Store raw messages (the immutable audit trail); MERGE on id makes retries idempotent.
// params: $agent_id string, $rows list<{id string, props map, pending bool (optional)}>, $embedder string or null
// returns: id string, embedder string (the model recorded for the agent; null when $embedder is null)
// A row with pending = true is a message still to be extracted: it carries the
// :PendingExtraction label until its extraction commits (the orphan sweep looks for it).
// Every node it creates adds one to the agent's AgentStats counter (read/agent_counts), itself
// created on first use from the agent's current counts. With $embedder, the agent's embedding
// model is claimed in the same statement (as spaces/claim: recorded at the first write): the
// caller compares the returned model and rolls the transaction back when it is another one.
// `terms` (the keyword signal's field): the expression of schema/backfill_terms.
CALL () {
  UNWIND CASE WHEN $embedder IS NULL THEN [] ELSE [$embedder] END AS model
  MERGE (sp:AgentEmbedder {agent_id: $agent_id})
  ON CREATE SET sp.embedder = model, sp.since = datetime()
  RETURN head(collect(sp.embedder)) AS recorded
}
MERGE (s:AgentStats {agent_id: $agent_id})
  ON CREATE SET s.counting = true
WITH s, recorded
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
UNWIND $rows AS row
WITH s, recorded, row, row.props AS props
MERGE (ev:Event {id: row.id})
ON CREATE SET ev += props {.*, embedding: null}, ev.agent_id = $agent_id, s.events = s.events + 1,
              ev.terms = trim(reduce(t = '', w IN split(toLower(props.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
FOREACH (_ IN CASE WHEN coalesce(row.pending, false) AND ev.extracted_at IS NULL
                   THEN [1] ELSE [] END | SET ev:PendingExtraction)
WITH ev, props, recorded
CALL (ev, props) {
  WITH ev, props WHERE props.embedding IS NOT NULL AND ev.embedding IS NULL
  CALL db.create.setNodeVectorProperty(ev, 'embedding', props.embedding)
}
RETURN ev.id AS id, recorded AS embedder
