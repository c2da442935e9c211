// The dispatch cursor, read without the lock: a dispatcher with nothing new to read takes no lock and writes nothing.
// params: none
// returns: cursor_at datetime|null, cursor_id string|null (no row before the first dispatch)
MATCH (d:WebhookDispatch {name: 'dispatch'})
RETURN d.cursor_at AS cursor_at, d.cursor_id AS cursor_id
