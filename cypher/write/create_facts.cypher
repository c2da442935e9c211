// Create fact versions; MERGE on id makes a retried transaction idempotent (callers pre-check supplied ids).
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
// The vector is written by db.create.setNodeVectorProperty (32-bit floats, half the bytes
// of a list property: every cosine of the traversal, spreading activation and the exact scan reads it),
// the only write of it: props go in without it. So is the vector of a fact's English gloss
// (props.gloss_embedding, null without a gloss).
UNWIND $rows AS row
WITH s, row, row.props AS props
MERGE (f:Fact {id: row.id})
ON CREATE SET f += props {.*, embedding: null, gloss_embedding: null}, f.agent_id = $agent_id, s.facts = s.facts + 1,
              f.terms = trim(reduce(t = '', w IN split(toLower(props.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
WITH f, row
CALL (f, row) {
  WITH f, row WHERE row.props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'embedding', row.props.embedding)
}
CALL (f, row) {
  WITH f, row WHERE row.props.gloss_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'gloss_embedding', row.props.gloss_embedding)
}
RETURN count(f) AS written
