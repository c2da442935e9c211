// Every version of a scope's ontology, newest first (the history `hippograph ontology show --history` prints).
// params: $scope string, $scope_id string
// returns: version int, name string|null, digest string|null, created_at datetime, created_by string|null
MATCH (o:Ontology {scope: $scope, scope_id: $scope_id})
RETURN o.version AS version, o.name AS name, o.digest AS digest, o.created_at AS created_at,
       o.created_by AS created_by
ORDER BY o.version DESC
