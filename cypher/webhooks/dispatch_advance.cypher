// Move the dispatch cursor to the last event read and the sequence past the deliveries made (in the transaction that holds the dispatch lock).
// params: $cursor_at datetime, $cursor_id string, $seq int
// returns: seq int
MATCH (d:WebhookDispatch {name: 'dispatch'})
SET d.cursor_at = $cursor_at, d.cursor_id = $cursor_id, d.seq = $seq
RETURN d.seq AS seq
