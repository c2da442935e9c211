// Cosine vector index on Fact.embedding (dimension from the embedder).
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS FOR (n:Fact) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
