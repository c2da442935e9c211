// Record the applied schema version, the applied migration names and the embedding dimension
// the vector indexes use.
// params: $version int, $applied list<string>, $dimensions int
// returns: version int
MERGE (m:HippographMeta {key: 'schema'})
SET m.version = $version, m.applied = $applied, m.dimensions = $dimensions, m.updated_at = datetime()
RETURN m.version AS version
