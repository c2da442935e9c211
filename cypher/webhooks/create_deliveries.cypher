// Queue the deliveries of newly read events (ids derived from webhook and event, so reading an event again creates nothing); webhooks/ensure_head then makes each idle lane's oldest one due.
// params: $rows list<map {id, lane, webhook_id, agent_id, tenant, type, source, source_id, source_at, seq, data (JSON string), text, entity_key, merged_entity_key, fact_ids list<string>}>, $now datetime, $max_attempts int
// returns: created int
UNWIND $rows AS row
MERGE (d:WebhookDelivery {id: row.id})
ON CREATE SET d.lane = row.lane, d.webhook_id = row.webhook_id, d.agent_id = row.agent_id,
              d.tenant = row.tenant, d.type = row.type, d.source = row.source,
              d.source_id = row.source_id, d.source_at = row.source_at, d.seq = row.seq,
              d.data = row.data, d.text = row.text, d.entity_key = row.entity_key,
              d.merged_entity_key = row.merged_entity_key, d.fact_ids = row.fact_ids,
              d.status = 'queued', d.attempts = 0, d.max_attempts = $max_attempts,
              d.created_at = $now, d.lease_token = 0, d.fresh = true
WITH d, coalesce(d.fresh, false) AS created
REMOVE d.fresh
RETURN sum(CASE WHEN created THEN 1 ELSE 0 END) AS created
