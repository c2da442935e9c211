// Whether an agent id without an owner already holds memory (index lookups, no label scan).
// params: $agent_id string
// returns: has_data bool
RETURN EXISTS { MATCH (f:Fact) WHERE f.agent_id = $agent_id }
    OR EXISTS { MATCH (e:Event) WHERE e.agent_id = $agent_id AND e.occurred_at IS NOT NULL }
    OR EXISTS { MATCH (n:Entity) WHERE n.agent_id = $agent_id AND n.type IS NOT NULL }
    OR EXISTS { MATCH (d:Document) WHERE d.agent_id = $agent_id } AS has_data
