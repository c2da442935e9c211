// Release an erased agent's id: drop its tenant claim and remove it from API keys (a key left with no agent is revoked).
// params: $agent_id string
// returns: keys_changed int, keys_revoked int, released bool
OPTIONAL MATCH (o:AgentTenant {agent_id: $agent_id})
DETACH DELETE o
WITH count(o) > 0 AS released
OPTIONAL MATCH (k:ApiKey) WHERE $agent_id IN coalesce(k.agents, [])
WITH released, k, [a IN coalesce(k.agents, []) WHERE a <> $agent_id] AS rest
WITH released, k, rest,
     k IS NOT NULL AND size(rest) = 0 AND NOT coalesce(k.all_agents, false)
       AND NOT coalesce(k.admin, false) AND k.revoked_at IS NULL AS revoke
FOREACH (_ IN CASE WHEN k IS NULL THEN [] ELSE [1] END |
  SET k.agents = rest,
      k.revoked_at = CASE WHEN revoke THEN datetime() ELSE k.revoked_at END)
RETURN count(k) AS keys_changed, sum(CASE WHEN revoke THEN 1 ELSE 0 END) AS keys_revoked,
       released
