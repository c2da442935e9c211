// Cosine vector index on Event.embedding (dimension from the embedder).
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX event_embedding IF NOT EXISTS FOR (n:Event) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
