// Scrub erased text from an agent's webhook deliveries (queued, in flight or kept): a fact's text when it names an erased fact, an entity key when it is an erased one. The deliveries stay, in order, and are still sent, without what was erased.
// params: $agent_id string, $fact_ids list<string>, $keys list<string>
// returns: scrubbed int
MATCH (d:WebhookDelivery {agent_id: $agent_id})
WHERE (d.text IS NOT NULL AND any(f IN coalesce(d.fact_ids, []) WHERE f IN $fact_ids))
   OR d.entity_key IN $keys OR d.merged_entity_key IN $keys
SET d.text = CASE WHEN any(f IN coalesce(d.fact_ids, []) WHERE f IN $fact_ids) THEN null
                  ELSE d.text END,
    d.entity_key = CASE WHEN d.entity_key IN $keys THEN null ELSE d.entity_key END,
    d.merged_entity_key = CASE WHEN d.merged_entity_key IN $keys THEN null
                               ELSE d.merged_entity_key END
RETURN count(d) AS scrubbed
