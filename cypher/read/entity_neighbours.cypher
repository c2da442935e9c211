// 1-hop neighbours of the given entities over visible RELATES_TO relationships (planner expansion).
// params: $agent_id string, $keys list<string>, $as_of datetime|null, $limit int
// returns: key string, name string, type string, strength float
UNWIND $keys AS k
MATCH (s:Entity {agent_id: $agent_id, key: k})-[r:RELATES_TO]-(n:Entity)
// n's agent in a form no index answers: the plan expands from s, never joins s with every
// entity of the agent (chosen by the planner where other agents' graphs are dense)
WHERE n.agent_id + '' = $agent_id AND n.merged_into IS NULL
  AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
    OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
        AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
        AND coalesce(r.valid_from, r.created_at) <= $as_of
        AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
RETURN n.key AS key, n.name AS name, n.type AS type, max(coalesce(r.strength, 0.8)) AS strength
ORDER BY strength DESC, key
LIMIT $limit
