// Schema version 8: an agent's entities by agent_id alone (entity resolution's exact scan of small agents; the composite entity_agent index needs type too, so that scan read every Entity of every agent).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE INDEX entity_agent_id IF NOT EXISTS FOR (n:Entity) ON (n.agent_id);
