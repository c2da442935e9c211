// The newest ontology of an agent and of its tenant (the agent's wins; graph/memory/ontology/store.py).
// params: $agent_id string
// returns: scope string, scope_id string, version int, document string|null (null: the scope went back to what it inherits)
CALL () {
  MATCH (o:Ontology {scope: 'agent', scope_id: $agent_id})
  RETURN o ORDER BY o.version DESC LIMIT 1
  UNION
  MATCH (t:AgentTenant {agent_id: $agent_id}) WHERE t.tenant IS NOT NULL
  MATCH (o:Ontology {scope: 'tenant', scope_id: t.tenant})
  RETURN o ORDER BY o.version DESC LIMIT 1
}
RETURN o.scope AS scope, o.scope_id AS scope_id, o.version AS version, o.document AS document
