// Orphan sweep: remember that these events were queued once (a dead job stays visible
// instead of being re-queued forever).
// params: $ids list<string>
// returns: marked int
UNWIND $ids AS eid
MATCH (ev:Event {id: eid})
SET ev.orphan_swept_at = datetime()
RETURN count(ev) AS marked
