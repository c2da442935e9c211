// Mark a document chunked: title and hash known, raw content dropped (the chunks hold the text).
// params: $agent_id string, $id string, $props map {title, content_hash, format, chunk_count, chars, source_url}
// returns: id string
MATCH (d:Document {id: $id, agent_id: $agent_id})
SET d += $props, d.status = 'chunked', d.raw_content = null, d.chunked_at = datetime()
RETURN d.id AS id
