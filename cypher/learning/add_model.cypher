// A new version of a tenant's ranking model (the unique (tenant, version) refuses a concurrent twin).
// params: $tenant string, $version int, $document string|null (JSON; null: back to the shipped model), $labels int, $now datetime, $by string|null
// returns: version int, created_at datetime
CREATE (m:RankerModel {tenant: $tenant, version: $version, document: $document, labels: $labels,
                       created_at: $now, created_by: $by})
RETURN m.version AS version, m.created_at AS created_at
