// Schema version 3: every agent belongs to one tenant ((:AgentTenant), unique agent id).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
// Agents named by existing keys go to the oldest such key's tenant; other agents that already
// hold data get an owner node without a tenant (only an operator's key naming them claims them).
CREATE CONSTRAINT agent_tenant_id IF NOT EXISTS FOR (o:AgentTenant) REQUIRE o.agent_id IS UNIQUE;
MATCH (k:ApiKey) WHERE NOT coalesce(k.admin, false) AND k.revoked_at IS NULL
WITH k ORDER BY k.created_at
UNWIND coalesce(k.agents, []) AS agent
MERGE (o:AgentTenant {agent_id: agent})
ON CREATE SET o.tenant = k.tenant, o.claimed_at = datetime();
MATCH (e:Entity) WITH DISTINCT e.agent_id AS agent WHERE agent IS NOT NULL
MERGE (o:AgentTenant {agent_id: agent})
ON CREATE SET o.claimed_at = datetime();
MATCH (e:Event) WITH DISTINCT e.agent_id AS agent WHERE agent IS NOT NULL
MERGE (o:AgentTenant {agent_id: agent})
ON CREATE SET o.claimed_at = datetime();
