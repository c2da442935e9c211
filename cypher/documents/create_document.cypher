// Register a document to ingest (idempotent on id: re-ingesting the same content is a no-op).
// params: $agent_id string, $id string, $props map {title, source, format, content_type, raw_content, url}
// returns: id string, status string, created bool
MERGE (d:Document {id: $id})
  ON CREATE SET d += $props, d.agent_id = $agent_id, d.status = 'pending',
                d.created_at = datetime(), d._new = true
WITH d, coalesce(d._new, false) AS created
REMOVE d._new
RETURN d.id AS id, d.status AS status, created
