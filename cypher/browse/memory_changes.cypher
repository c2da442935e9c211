// An agent's applied memory changes (Audit nodes) from a position on, oldest first, while the agent still belongs to the tenant the reader saw: what the memoryChanged subscription streams. Index-backed: the agent_tenant_id constraint finds the owner, audit_agent (agent_id, created_at) seeks the range, the fact_id constraint finds each fact.
// params: $agent_id string, $tenant string|null (the owner the reader started with; null: no tenant), $after datetime, $after_id string ("" for every change at $after), $limit int
// returns: owned bool (false: the id belongs to someone else now, no change is read), changes list<map {id, created_at, action, fact_id, target_id, scope, text}>
// Text only while it may still be shown: a fact's text while the fact exists and no FORGET of
// it came later, a merge's dropped key until an erase scrubbed the record; never for FORGET,
// DELETE or ERASE records, nor for any record an erase or retention scrubbed (erased_at).
OPTIONAL MATCH (o:AgentTenant {agent_id: $agent_id})
WITH coalesce(o.tenant, '') = coalesce($tenant, '') AS owned
CALL (owned) {
  MATCH (a:Audit {agent_id: $agent_id})
  WHERE owned AND a.created_at >= $after AND (a.created_at > $after OR a.id > $after_id)
    AND a.applied = true AND a.action IN ['ADD', 'UPDATE', 'DELETE', 'FORGET', 'ERASE', 'MERGE']
  WITH a ORDER BY a.created_at, a.id LIMIT $limit
  OPTIONAL MATCH (f:Fact {id: a.fact_id})
    WHERE a.action IN ['ADD', 'UPDATE'] AND f.agent_id = $agent_id
  WITH a, f IS NOT NULL AND NOT EXISTS {
         MATCH (g:Audit {agent_id: $agent_id})
         WHERE g.created_at >= a.created_at AND g.action = 'FORGET' AND g.fact_id = a.fact_id
       } AS showable
  RETURN collect(a {.id, .created_at, .action, .fact_id, .scope,
                    target_id: CASE WHEN a.erased_at IS NULL THEN a.target_id END,
                    text: CASE WHEN a.erased_at IS NOT NULL THEN null
                               WHEN a.action = 'MERGE' THEN a.text
                               WHEN showable THEN a.text END}) AS changes
}
RETURN owned, changes
