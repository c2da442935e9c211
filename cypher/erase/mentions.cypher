// Facts, events and documents of an agent whose text names one of the erased names: what a subject erase also removes.
// params: $agent_id string, $patterns list<string> (whole-word regexes of the erased names)
// returns: fact_ids list<string>, event_ids list<string>, document_ids list<string>
CALL () {
  MATCH (f:Fact {agent_id: $agent_id})
  WHERE any(t IN $patterns WHERE (f.text) =~ t)
  RETURN collect(f.id) AS fact_ids
}
CALL () {
  MATCH (ev:Event {agent_id: $agent_id})
  WHERE any(t IN $patterns WHERE (coalesce(ev.text, '') + ' ' + coalesce(ev.thread_id, '')
                                      + ' ' + coalesce(ev.speaker, '')) =~ t)
  RETURN collect(ev.id) AS event_ids
}
CALL () {
  MATCH (d:Document {agent_id: $agent_id})
  OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
  WITH d, collect(c.text) AS texts
  WHERE any(t IN $patterns WHERE (coalesce(d.title, '') + ' ' + coalesce(d.url, '') + ' '
                                      + coalesce(d.source, '') + ' '
                                      + coalesce(d.raw_content, '')) =~ t
                         OR any(x IN texts WHERE x =~ t))
  RETURN collect(d.id) AS document_ids
}
RETURN fact_ids, event_ids, document_ids
