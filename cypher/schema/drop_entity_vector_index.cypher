// Drops the entity vector index so it can be rebuilt in the filtered form (storing agent_id); the entitys and their embeddings stay.
// params: none
// returns: nothing
DROP INDEX entity_embedding IF EXISTS
