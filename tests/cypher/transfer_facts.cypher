// Test helper (peer imports): an agent's facts with their validity and provenance, in text order.
// params: $agent string
// returns: text, valid_from, valid_to, created_at, events int, source_context
MATCH (f:Fact {agent_id: $agent})
OPTIONAL MATCH (f)-[:FROM_EVENT]->(e:Event)
RETURN f.text AS text, f.valid_from AS valid_from, f.valid_to AS valid_to,
       f.created_at AS created_at, count(e) AS events, f.source_context AS source_context
ORDER BY text
