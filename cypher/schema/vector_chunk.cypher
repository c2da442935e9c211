// Cosine vector index on Chunk.embedding (dimension from the embedder).
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX chunk_embedding IF NOT EXISTS FOR (n:Chunk) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
