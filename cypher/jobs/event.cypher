// One event of an agent, for the extraction job (text and context of the message).
// params: $agent_id string, $id string
// returns: id, text, speaker, occurred_at, thread_id, facts int (facts already derived from it)
MATCH (ev:Event {id: $id, agent_id: $agent_id})
OPTIONAL MATCH (f:Fact)-[:FROM_EVENT]->(ev)
RETURN ev.id AS id, ev.text AS text, ev.speaker AS speaker, ev.occurred_at AS occurred_at,
       ev.thread_id AS thread_id, count(f) AS facts
