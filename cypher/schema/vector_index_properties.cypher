// The filterable vector indexes (facts, entities, events) with their stored properties (['embedding'] plain, ['embedding', 'agent_id'] filtered form); no row for an index that does not exist.
// params: none
// returns: name string, properties list<string>
SHOW INDEXES YIELD name, type, properties
WHERE name IN ['fact_embedding', 'entity_embedding', 'event_embedding'] AND type = 'VECTOR'
RETURN name, properties
