// The newest version of one scope's ontology (read in the transaction that adds the next one, and by `ontology show` / `check`).
// params: $scope string ('tenant' | 'agent'), $scope_id string
// returns: version int, digest string|null, document string|null (no row when the scope never had one)
MATCH (o:Ontology {scope: $scope, scope_id: $scope_id})
RETURN o.version AS version, o.digest AS digest, o.document AS document
ORDER BY o.version DESC LIMIT 1
