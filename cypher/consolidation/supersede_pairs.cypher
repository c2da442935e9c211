// Changes over time: an active fact and the closed fact it superseded ("used to X, now Y").
// params: $agent_id string, $limit int
// returns: new_id, new_text, old_id, old_text, subject_name
MATCH (n:Fact {agent_id: $agent_id})-[:SUPERSEDES]->(o:Fact {agent_id: $agent_id})
WHERE n.valid_to IS NULL AND n.invalidated_at IS NULL
OPTIONAL MATCH (n)-[:ABOUT {primary: true}]->(e:Entity)
WITH n, o, head(collect(e)) AS e
RETURN n.id AS new_id, n.text AS new_text, o.id AS old_id, o.text AS old_text,
       coalesce(e.name, n.subject_key) AS subject_name
ORDER BY n.created_at DESC, n.id
LIMIT $limit
