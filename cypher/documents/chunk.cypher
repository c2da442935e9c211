// One chunk with its document's title and source (for per-chunk extraction).
// params: $agent_id string, $id string
// returns: id, ord, text, document_id, title, source
MATCH (d:Document {agent_id: $agent_id})-[:HAS_CHUNK]->(c:Chunk {id: $id})
RETURN c.id AS id, c.ord AS ord, c.text AS text, d.id AS document_id, d.title AS title,
       d.source AS source
