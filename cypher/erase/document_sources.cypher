// Documents behind events (chunk extractions run in thread `document:<id>`), with the events of those documents and their chunk ids.
// params: $agent_id string, $event_ids list<string>, $document_ids list<string>
// returns: document_ids list<string>, event_ids list<string>, chunk_ids list<string>
CALL () {
  UNWIND $event_ids AS eid
  MATCH (ev:Event {id: eid}) WHERE ev.agent_id = $agent_id AND ev.thread_id STARTS WITH 'document:'
  RETURN collect(DISTINCT substring(ev.thread_id, 9)) AS from_events
}
WITH [d IN from_events WHERE NOT d IN $document_ids] + $document_ids AS doc_ids
CALL (doc_ids) {
  UNWIND doc_ids AS did
  MATCH (d:Document {id: did}) WHERE d.agent_id = $agent_id
  RETURN collect(d.id) AS document_ids
}
CALL (document_ids) {
  MATCH (ev:Event {agent_id: $agent_id})
  WHERE ev.thread_id IN [d IN document_ids | 'document:' + d]
  RETURN collect(ev.id) AS event_ids
}
CALL (document_ids) {
  UNWIND document_ids AS did
  MATCH (:Document {id: did})-[:HAS_CHUNK]->(c:Chunk)
  RETURN collect(c.id) AS chunk_ids
}
RETURN document_ids, event_ids, chunk_ids
