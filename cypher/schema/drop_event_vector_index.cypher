// Drops the event vector index so it can be rebuilt in the filtered form (storing agent_id); the events and their embeddings stay.
// params: none
// returns: nothing
DROP INDEX event_embedding IF EXISTS
