// Register a webhook: an endpoint for the memory events of one tenant's agents or of one agent. The secret is stored as given (the sender signs with it) and never read back by a listing.
// params: $id string, $scope string ('tenant' | 'agent'), $tenant string|null, $agent_id string|null, $url string, $secret string, $events list<string>, $description string|null, $now datetime
// returns: webhook map {id, scope, tenant, agent_id, url, events, description, created_at, secret_hint}
CREATE (w:Webhook {id: $id, scope: $scope, tenant: $tenant, agent_id: $agent_id, url: $url,
                   secret: $secret, events: $events, description: $description, created_at: $now})
RETURN w {.id, .scope, .tenant, .agent_id, .url, .events, .description, .created_at,
          secret_hint: right(w.secret, 4)} AS webhook
