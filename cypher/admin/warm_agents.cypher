// The page-cache warm-up's plan: every agent holding facts, entities, events or observations, with how many it holds. Counted from the agent_id range indexes (the index holds the value), so this reads no node record.
// params: none
// returns: agent_id string, items int (facts + entities + events + observations)
CALL {
  MATCH (f:Fact)
  WHERE f.agent_id IS NOT NULL
  RETURN f.agent_id AS agent_id, count(*) AS n
  UNION ALL
  MATCH (e:Entity)
  WHERE e.agent_id IS NOT NULL
  RETURN e.agent_id AS agent_id, count(*) AS n
  UNION ALL
  MATCH (v:Event)
  WHERE v.agent_id IS NOT NULL
  RETURN v.agent_id AS agent_id, count(*) AS n
  UNION ALL
  MATCH (o:Observation)
  WHERE o.agent_id IS NOT NULL
  RETURN o.agent_id AS agent_id, count(*) AS n
}
RETURN agent_id, sum(n) AS items
ORDER BY agent_id
