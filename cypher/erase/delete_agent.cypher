// Delete up to $batch nodes of one agent (every label that carries agent_id, each through its index, the agent's own ontology versions, its webhooks, lanes and deliveries); callers repeat until deleted < $batch.
// params: $agent_id string, $batch int
// returns: deleted int, facts int, events int, entities int, documents int, observations int, jobs int (of the nodes deleted)
// The AgentStats counter (read/agent_counts) loses what each batch deletes until it is deleted itself.
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
  UNION MATCH (n:AgentStats {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:RankFeedback {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Ontology {scope: 'agent', scope_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:WebhookDelivery {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:WebhookLane {agent_id: $agent_id}) RETURN n LIMIT $batch
  UNION MATCH (n:Webhook {agent_id: $agent_id}) RETURN n LIMIT $batch
}
WITH n LIMIT $batch
WITH n, CASE WHEN n:Fact THEN 1 ELSE 0 END AS fact, CASE WHEN n:Event THEN 1 ELSE 0 END AS event,
     CASE WHEN n:Observation THEN 1 ELSE 0 END AS observation,
     CASE WHEN n:Entity THEN 1 ELSE 0 END AS entity, CASE WHEN n:Document THEN 1 ELSE 0 END AS document,
     CASE WHEN n:Job THEN 1 ELSE 0 END AS job
DETACH DELETE n
WITH count(*) AS deleted, sum(fact) AS facts, sum(event) AS events, sum(observation) AS observations,
     sum(entity) AS entities, sum(document) AS documents, sum(job) AS jobs
OPTIONAL MATCH (s:AgentStats {agent_id: $agent_id})
SET s.facts = s.facts - facts, s.events = s.events - events,
    s.observations = s.observations - observations
RETURN deleted, facts, events, entities, documents, observations, jobs
