// Write a batch of imported events (MERGE on the mapped id: re-importing rewrites them).
// params: $agent_id string, $rows list<{id string, props map}>
// returns: written int
// Every node it creates adds one to the agent's AgentStats counter (read/agent_counts), itself
// created on first use from the agent's current counts.
// `terms` (the keyword signal's field): the expression of schema/backfill_terms.
MERGE (s:AgentStats {agent_id: $agent_id})
  ON CREATE SET s.counting = true
WITH s
CALL (s) {
  WITH s
  WHERE s.counting
  SET s.facts = COUNT { (x:Fact {agent_id: $agent_id}) },
      s.events = COUNT { (x:Event {agent_id: $agent_id}) },
      s.observations = COUNT { (x:Observation {agent_id: $agent_id}) }
  REMOVE s.counting
}
// The vector is written by db.create.setNodeVectorProperty (32-bit floats: the exact scan of a
// small agent's events reads it for every question), the only write of it;
// a record without a vector leaves a re-imported event's vector as it is.
UNWIND $rows AS row
WITH s, row, row.props AS props
MERGE (n:Event {id: row.id})
  ON CREATE SET s.events = s.events + 1
SET n += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    n.agent_id = $agent_id
SET n.terms = trim(reduce(t = '', w IN split(toLower(n.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
WITH n, props
CALL (n, props) {
  WITH n, props WHERE props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, 'embedding', props.embedding)
}
RETURN count(n) AS written
