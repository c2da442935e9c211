// One fact of the agent with its state (tests, CLI, forget checks).
// params: $agent_id string, $fact_id string
// returns: fact map without the embedding, subject_key string
MATCH (f:Fact {id: $fact_id, agent_id: $agent_id})
RETURN f {.*, embedding: null} AS fact
