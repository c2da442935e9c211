// Every verdict of a tenant's users with its feature row (the training set of `hippograph rank train`).
// params: $tenant string, $vocabulary string
// returns: retrieve_id string, helpful boolean, features list<float>
MATCH (f:RankFeedback {tenant: $tenant})
WHERE f.vocabulary = $vocabulary
RETURN f.retrieve_id AS retrieve_id, f.helpful AS helpful, f.features AS features
ORDER BY f.created_at, f.id
