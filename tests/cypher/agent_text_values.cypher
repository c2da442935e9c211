// Every stored property of an agent's nodes except embeddings (PII leak checks).
// params: $agent_id string
// returns: label string, key string, value any
CALL () {
  MATCH (n:Event {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Fact {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Entity {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Alias {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Document {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Chunk {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Job {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:WriteReceipt {agent_id: $agent_id}) RETURN n
  UNION MATCH (n:Audit {agent_id: $agent_id}) RETURN n
}
UNWIND [k IN keys(n) WHERE k <> 'embedding'] AS k
RETURN CASE WHEN n:Entity THEN 'Entity' ELSE labels(n)[0] END AS label, k AS key, n[k] AS value
