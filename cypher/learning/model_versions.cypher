// Every version of a tenant's ranking model, newest first (`hippograph rank show`).
// params: $tenant string
// returns: version int, document string|null, labels int, created_at datetime, created_by string|null
MATCH (m:RankerModel {tenant: $tenant})
RETURN m.version AS version, m.document AS document, m.labels AS labels,
       m.created_at AS created_at, m.created_by AS created_by
ORDER BY m.version DESC
