// The start of each erased message's text: what identifies it among later jobs' earlier messages (recent_messages).
// params: $agent_id string, $ids list<string> (one batch), $chars int
// returns: text string
UNWIND $ids AS eid
MATCH (ev:Event {id: eid}) WHERE ev.agent_id = $agent_id AND ev.text IS NOT NULL
RETURN substring(ev.text, 0, $chars) AS text
