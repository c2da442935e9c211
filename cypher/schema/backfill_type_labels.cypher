// Label up to $batch entities of the built-in types that lack their label (schema version 13), in agents that have no operator's ontology (neither their own nor their tenant's); graph/schema.py runs it until it labels none, once, when the migration is applied.
// params: $batch int, $labels map<type string, label string> (the built-in ontology's)
// returns: updated int
MATCH (e:Entity)
WHERE e.type IN keys($labels) AND NOT $labels[e.type] IN labels(e)
  AND NOT EXISTS { MATCH (:Ontology {scope: 'agent', scope_id: e.agent_id}) }
  AND NOT EXISTS {
    MATCH (t:AgentTenant {agent_id: e.agent_id})
    MATCH (:Ontology {scope: 'tenant', scope_id: t.tenant})
  }
WITH e LIMIT $batch
SET e:$($labels[e.type])
RETURN count(e) AS updated
