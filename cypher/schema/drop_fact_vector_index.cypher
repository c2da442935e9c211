// Drops the fact vector index so it can be rebuilt in the filtered form (storing agent_id); the facts and their embeddings stay.
// params: none
// returns: nothing
DROP INDEX fact_embedding IF EXISTS
