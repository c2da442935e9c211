// Schema version 16: webhooks — endpoints, their delivery queue (due deliveries by status and time, each lane of a webhook and an agent in order, terminal ones by age), lanes and the dispatch cursor, the agents of a tenant, and the indexes that find an agent's finished jobs and extracted messages since an instant.
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT webhook_id IF NOT EXISTS FOR (n:Webhook) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT webhook_delivery_id IF NOT EXISTS FOR (n:WebhookDelivery) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT webhook_lane_key IF NOT EXISTS FOR (n:WebhookLane) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT webhook_dispatch_name IF NOT EXISTS FOR (n:WebhookDispatch) REQUIRE n.name IS UNIQUE;
CREATE INDEX webhook_agent IF NOT EXISTS FOR (n:Webhook) ON (n.agent_id);
CREATE INDEX webhook_lane_agent IF NOT EXISTS FOR (n:WebhookLane) ON (n.agent_id);
CREATE INDEX webhook_delivery_due IF NOT EXISTS FOR (n:WebhookDelivery) ON (n.status, n.next_at);
CREATE INDEX webhook_delivery_finished IF NOT EXISTS FOR (n:WebhookDelivery) ON (n.status, n.finished_at);
CREATE INDEX webhook_delivery_lane IF NOT EXISTS FOR (n:WebhookDelivery) ON (n.lane, n.status, n.seq);
CREATE INDEX webhook_delivery_source IF NOT EXISTS FOR (n:WebhookDelivery) ON (n.agent_id, n.source_id);
CREATE INDEX webhook_delivery_webhook IF NOT EXISTS FOR (n:WebhookDelivery) ON (n.webhook_id, n.created_at);
CREATE INDEX job_agent_finished IF NOT EXISTS FOR (n:Job) ON (n.agent_id, n.finished_at);
CREATE INDEX event_agent_extracted IF NOT EXISTS FOR (n:Event) ON (n.agent_id, n.extracted_at);
CREATE INDEX agent_tenant_tenant IF NOT EXISTS FOR (n:AgentTenant) ON (n.tenant);
