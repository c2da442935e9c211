// Delete up to $batch nodes of one agent (every label that carries agent_id, each through its index); callers repeat until deleted < $batch.
// params: $agent_id string, $batch int
// returns: deleted int
CALL () {
  MATCH (n:Fact {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Event {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Entity {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Alias {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Observation {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:MergeCandidate {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Audit {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Job {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:JobDedup {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Document {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Chunk {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:WriteReceipt {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:AgentEmbedder {agent_id: $agent_id}) RETURN n LIMIT $batch
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
