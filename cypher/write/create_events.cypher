// Store raw messages (the immutable audit trail); MERGE on id makes retries idempotent.
// params: $agent_id string, $rows list<{id string, props map, pending bool (optional)}>
// returns: id string
// A row with pending = true is a message still to be extracted: it carries the
// :PendingExtraction label until its extraction commits (the orphan sweep looks for it).
UNWIND $rows AS row
MERGE (ev:Event {id: row.id})
ON CREATE SET ev += row.props, ev.agent_id = $agent_id
FOREACH (_ IN CASE WHEN coalesce(row.pending, false) AND ev.extracted_at IS NULL
                   THEN [1] ELSE [] END | SET ev:PendingExtraction)
RETURN ev.id AS id
