// Take the cluster's dispatch lock (one dispatcher at a time turns new events into deliveries) and read its cursor and sequence.
// params: none
// returns: cursor_at datetime|null, cursor_id string|null, seq int
MERGE (d:WebhookDispatch {name: 'dispatch'})
ON CREATE SET d.seq = 0
SET d.locked_at = datetime()
RETURN d.cursor_at AS cursor_at, d.cursor_id AS cursor_id, d.seq AS seq
