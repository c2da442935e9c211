// The agents a caller may read with how much each remembers (the explorer's agent list).
// params: $agent_ids list<string>|null (the key's named agents; null: every agent with data),
//         $tenant string|null (only agents this tenant owns; null: any tenant, admin keys)
// returns: agent_id string, facts int (active), entities int (not merged), relations int (active), events int
// The scans that find every agent run only for $agent_ids null (the filter comes before them, so
// a key naming its agents never reads another agent's nodes); then every agent's data is counted.
CALL () {
  UNWIND coalesce($agent_ids, []) AS agent_id
  RETURN agent_id
  UNION
  WITH 1 AS every WHERE $agent_ids IS NULL
  MATCH (e:Entity) WHERE e.agent_id IS NOT NULL
  RETURN DISTINCT e.agent_id AS agent_id
  UNION
  WITH 1 AS every WHERE $agent_ids IS NULL
  MATCH (v:Event) WHERE v.agent_id IS NOT NULL
  RETURN DISTINCT v.agent_id AS agent_id
  UNION
  WITH 1 AS every WHERE $agent_ids IS NULL
  MATCH (o:AgentTenant) WHERE o.tenant IS NOT NULL
  RETURN o.agent_id AS agent_id
}
OPTIONAL MATCH (o:AgentTenant {agent_id: agent_id})
WITH agent_id, o.tenant AS owner
WHERE $tenant IS NULL OR owner = $tenant OR (owner IS NULL AND $agent_ids IS NOT NULL)
CALL (agent_id) {
  MATCH (f:Fact {agent_id: agent_id}) WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  RETURN count(f) AS facts
}
CALL (agent_id) {
  MATCH (e:Entity {agent_id: agent_id}) WHERE e.merged_into IS NULL
  RETURN count(e) AS entities
}
CALL (agent_id) {
  MATCH (:Entity {agent_id: agent_id})-[r:RELATES_TO]->(:Entity {agent_id: agent_id})
  WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL
  RETURN count(r) AS relations
}
CALL (agent_id) {
  MATCH (v:Event {agent_id: agent_id})
  RETURN count(v) AS events
}
RETURN agent_id, facts, entities, relations, events
ORDER BY agent_id
