// Entity resolution's strategy: the agent's entities counted up to $max (a bounded read; the exact scan is chosen below that size).
// params: $agent_id string, $max int
// returns: agent_entities int (at most $max)
CALL () {
  MATCH (e:Entity {agent_id: $agent_id})
  WITH e LIMIT $max
  RETURN count(e) AS agent_entities
}
RETURN agent_entities
