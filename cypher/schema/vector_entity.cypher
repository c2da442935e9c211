// Cosine vector index on Entity.embedding (dimension from the embedder).
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (n:Entity) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
