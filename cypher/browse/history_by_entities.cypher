// Timelines of several entities: facts about each and its relationships, with their lifetimes.
// params: $agent_id string, $keys list<string>, $limit int
// returns: key string, changes list<{at, change, text, fact_id, rel_id}>, newest first, at most $limit each
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})
CALL (e) {
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
  WITH at, change, text, fact_id, rel_id ORDER BY at DESC, change LIMIT $limit
  RETURN collect({at: at, change: change, text: text, fact_id: fact_id, rel_id: rel_id}) AS changes
}
RETURN key, changes
