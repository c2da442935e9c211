// Cosine vector index on Event.embedding that also stores agent_id, for in-index filtered search (Cypher 25 SEARCH … WHERE node.agent_id = …; Neo4j 2026.01+ only). Unquantized, like the fact index.
// params: $dimensions int
// returns: nothing
CYPHER 25
CREATE VECTOR INDEX event_embedding IF NOT EXISTS FOR (n:Event) ON (n.embedding) WITH [n.agent_id]
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine',
                           `vector.quantization.enabled`: false}}
