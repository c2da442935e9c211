// A new version of a scope's ontology (the unique (scope, scope_id, version) refuses a concurrent twin).
// params: $scope string, $scope_id string, $version int, $title string|null, $document string|null (JSON; null: back to the inherited ontology), $digest string|null, $now datetime, $by string|null
// returns: version int, created_at datetime
CREATE (o:Ontology {scope: $scope, scope_id: $scope_id, version: $version, name: $title,
                    document: $document, digest: $digest, created_at: $now, created_by: $by})
RETURN o.version AS version, o.created_at AS created_at
