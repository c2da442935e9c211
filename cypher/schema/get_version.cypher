// The applied schema version (0 when the database is new) and the applied migration names.
// params: none
// returns: version int, dimensions int|null, applied list<string>|null (null before names were recorded)
OPTIONAL MATCH (m:HippographMeta {key: 'schema'})
RETURN coalesce(m.version, 0) AS version, m.dimensions AS dimensions, m.applied AS applied
