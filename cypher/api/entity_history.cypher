// Timeline of one entity: every fact about it and every relationship, with their lifetimes.
// params: $agent_id string, $key string, $limit int
// returns: at string(datetime), change string, text string, fact_id string|null, rel_id string|null
MATCH (e:Entity {agent_id: $agent_id, key: $key})
CALL (e) {
  MATCH (f:Fact)-[:ABOUT]->(e)
  UNWIND [['FACT_ADDED', f.created_at], ['FACT_ENDED', coalesce(f.invalidated_at, f.valid_to)]] AS ch
  WITH f, ch WHERE ch[1] IS NOT NULL
  RETURN ch[1] AS at, ch[0] AS change, f.text AS text, f.id AS fact_id, null AS rel_id
  UNION ALL
  MATCH (e)-[r:RELATES_TO]-(o:Entity)
  UNWIND [['RELATIONSHIP_ADDED', r.created_at],
          ['RELATIONSHIP_ENDED', coalesce(r.invalidated_at, r.valid_to)]] AS ch
  WITH r, o, ch WHERE ch[1] IS NOT NULL
  RETURN ch[1] AS at, ch[0] AS change,
         startNode(r).name + ' ' + r.type + ' ' + endNode(r).name AS text,
         null AS fact_id, r.id AS rel_id
}
RETURN at, change, text, fact_id, rel_id
ORDER BY at DESC, change
LIMIT $limit
