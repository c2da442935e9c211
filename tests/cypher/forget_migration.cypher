// Test helper: take one migration's name out of the applied list, as on a database from before it.
// params: $name string
// returns: applied list<string>
MATCH (m:HippographMeta {key: 'schema'})
SET m.applied = [x IN m.applied WHERE x <> $name]
RETURN m.applied AS applied
