// Record the applied schema version and the embedding dimension the vector indexes use.
// params: $version int, $dimensions int
// returns: version int
MERGE (m:HippographMeta {key: 'schema'})
SET m.version = $version, m.dimensions = $dimensions, m.updated_at = datetime()
RETURN m.version AS version
