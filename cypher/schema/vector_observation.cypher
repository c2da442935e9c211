// Cosine vector index on Observation.embedding (dimension from the embedder).
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX observation_embedding IF NOT EXISTS FOR (n:Observation) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
