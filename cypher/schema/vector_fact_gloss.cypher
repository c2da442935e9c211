// Cosine vector index on Fact.gloss_embedding, the vector of a fact's English gloss (dimension from the embedder); only glossed facts have the property, so only they are in it. Plain form on every server: read/semantic_glosses_index over-fetches it for an agent with more glosses than the exact scan takes.
// params: $dimensions int
// returns: nothing
CREATE VECTOR INDEX fact_gloss_embedding IF NOT EXISTS FOR (n:Fact) ON (n.gloss_embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimensions, `vector.similarity_function`: 'cosine'}}
