// The registered webhooks (all, or those of one tenant or one agent), newest first, with how many of their deliveries are in each state; never their secrets.
// params: $tenant string|null, $agent_id string|null (null: any)
// returns: webhook map {id, scope, tenant, agent_id, url, events, description, created_at, secret_hint, pending, delivered, dead}
MATCH (w:Webhook)
WHERE ($tenant IS NULL OR w.tenant = $tenant) AND ($agent_id IS NULL OR w.agent_id = $agent_id)
WITH w ORDER BY w.created_at DESC
RETURN w {.id, .scope, .tenant, .agent_id, .url, .events, .description, .created_at,
          secret_hint: right(w.secret, 4),
          pending: COUNT { MATCH (d:WebhookDelivery {webhook_id: w.id})
                           WHERE d.status IN ['pending', 'leased', 'queued'] },
          delivered: COUNT { MATCH (d:WebhookDelivery {webhook_id: w.id}) WHERE d.status = 'delivered' },
          dead: COUNT { MATCH (d:WebhookDelivery {webhook_id: w.id}) WHERE d.status = 'dead' }} AS webhook
