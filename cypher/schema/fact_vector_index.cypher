// The fact vector index's stored properties (['embedding'] plain, ['embedding', 'agent_id'] filtered form); no row when it does not exist.
// params: none
// returns: properties list<string>
SHOW INDEXES YIELD name, type, properties
WHERE name = 'fact_embedding' AND type = 'VECTOR'
RETURN properties
