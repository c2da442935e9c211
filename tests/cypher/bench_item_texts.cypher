// Bench helper (read): the text of one agent's facts and events by id (bilingual ceiling: each item's language).
// params: $agent_id string, $ids list<string>
// returns: id string, text string
UNWIND $ids AS id
MATCH (n:Fact|Event {id: id})
WHERE n.agent_id = $agent_id
RETURN n.id AS id, n.text AS text
