// Schema version 5: an agent's events by agent_id alone (the exact event scan of small agents; the composite event_agent index needs occurred_at too, so that scan read every Event of every agent).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE INDEX event_agent_id IF NOT EXISTS FOR (n:Event) ON (n.agent_id);
