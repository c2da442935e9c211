// The newest document of a tenant's ontology and of its agents' own ontologies (the Browser style for a tenant's API key, server/browser_guide.py; a reset scope has none).
// params: $tenant string, $agents list<string>|null (the agents the key covers; null: every agent of the tenant)
// returns: document string (JSON; one row per scope)
CALL () {
  MATCH (o:Ontology {scope: 'tenant', scope_id: $tenant})
  RETURN o.scope AS scope, o.scope_id AS scope_id, max(o.version) AS version
  UNION
  MATCH (t:AgentTenant {tenant: $tenant})
  WHERE $agents IS NULL OR t.agent_id IN $agents
  MATCH (o:Ontology {scope: 'agent', scope_id: t.agent_id})
  RETURN o.scope AS scope, o.scope_id AS scope_id, max(o.version) AS version
}
MATCH (o:Ontology {scope: scope, scope_id: scope_id, version: version})
WHERE o.document IS NOT NULL
RETURN o.document AS document
