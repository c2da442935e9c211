// One page of the agents a caller may read, ordered by id, optionally filtered by a substring of the id, with how much each agent of the page remembers (the explorer's agent list). Only the page's agents are counted.
// params: $agent_ids list<string>|null (the key's named agents; null: every agent with data), $tenant string|null (only agents this tenant owns; null: any tenant, admin keys), $search string|null (case-insensitive substring of the id), $after string|null (the last id of the previous page), $first int
// returns: total int (agents matching, every page), more bool (a page follows), agents list<map {agent_id, facts, entities, relations, events}>
// The scans that find every agent run only for $agent_ids null, as in browse/agents_summary.
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
WHERE ($tenant IS NULL OR owner = $tenant OR (owner IS NULL AND $agent_ids IS NOT NULL))
  AND ($search IS NULL OR toLower(agent_id) CONTAINS toLower($search))
WITH agent_id ORDER BY agent_id
WITH collect(agent_id) AS ids
WITH size(ids) AS total, [i IN ids WHERE $after IS NULL OR i > $after] AS rest
WITH total, rest[0..$first] AS page, size(rest) > $first AS more
CALL (page) {
  UNWIND page AS agent_id
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
  WITH agent_id, facts, entities, relations, events ORDER BY agent_id
  RETURN collect({agent_id: agent_id, facts: facts, entities: entities, relations: relations,
                  events: events}) AS agents
}
RETURN total, more, agents
