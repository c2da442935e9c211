// The types in use: the agent's live entities and active relationships by type, beside the ontology that declares them (its own, else its tenant's; none: the open built-in one).
// params: $agent_id string
// returns: kind, type, count, ontology (name and version, or "built-in")
CALL () {
  OPTIONAL MATCH (a:Ontology {scope: 'agent', scope_id: $agent_id})
  OPTIONAL MATCH (t:AgentTenant {agent_id: $agent_id})
  OPTIONAL MATCH (o:Ontology {scope: 'tenant', scope_id: t.tenant})
  WITH coalesce(a, o) AS newest ORDER BY newest.scope, newest.version DESC LIMIT 1
  RETURN CASE WHEN newest IS NULL OR newest.document IS NULL THEN 'built-in'
              ELSE newest.name + ' v' + toString(newest.version) END AS ontology
}
CALL () {
  MATCH (e:Entity {agent_id: $agent_id}) WHERE e.merged_into IS NULL
  RETURN 'entity' AS kind, e.type AS type, count(*) AS count
  UNION ALL
  MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO]->(:Entity)
  WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
  RETURN 'relationship' AS kind, r.type AS type, count(*) AS count
}
RETURN kind, type, count, ontology
ORDER BY kind, count DESC, type
