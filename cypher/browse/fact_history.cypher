// The SUPERSEDES version chain through one fact, both ways (older and newer versions).
// params: $agent_id string, $id string
// returns: fact map + supersedes list<string> (ids this version replaced), oldest first
MATCH (f:Fact {agent_id: $agent_id, id: $id})
CALL (f) {
  MATCH (n:Fact)-[:SUPERSEDES*0..50]->(f) RETURN n
  UNION
  MATCH (f)-[:SUPERSEDES*0..50]->(n:Fact) RETURN n
}
WITH DISTINCT n
OPTIONAL MATCH (n)-[:SUPERSEDES]->(old:Fact)
WITH n, collect(old.id) AS supersedes
RETURN n {.id, .text, .subject_key, .kind, .confidence, .importance, .importance_category,
          .temporal_class, .valid_until, .categories, .language, .speaker, .valid_from,
          .valid_to, .invalidated_at, .created_at, .last_confirmed_at, .reinforcement_count,
          .review_needed, supersedes: supersedes} AS fact
ORDER BY n.created_at, n.id
