// The applied schema version (0 when the database is new).
// params: none
// returns: version int, dimensions int|null
OPTIONAL MATCH (m:HippographMeta {key: 'schema'})
RETURN coalesce(m.version, 0) AS version, m.dimensions AS dimensions
