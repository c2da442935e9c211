// Write a batch of imported fact versions with their ABOUT and FROM_EVENT links.
// params: $agent_id string, $rows list<{id string, props map, about list<{key, primary}>, from_events list<string>, gloss_embedding list<float>|null (the vector of the fact's English gloss, apart from props)}>
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
// the only write of it: props go in without it.
UNWIND $rows AS row
WITH s, row, row.props AS props
MERGE (f:Fact {id: row.id})
  ON CREATE SET s.facts = s.facts + 1
// (a record without a vector leaves a re-imported fact's vector as it is)
SET f += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    f.agent_id = $agent_id
SET f.terms = trim(reduce(t = '', w IN split(toLower(f.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
WITH f, row
CALL (f, row) {
  WITH f, row WHERE row.props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'embedding', row.props.embedding)
}
CALL (f, row) {
  WITH f, row WHERE row.gloss_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'gloss_embedding', row.gloss_embedding)
}
CALL (f, row) {
  UNWIND row.about AS ab
  MATCH (e:Entity {agent_id: $agent_id, key: ab.key})
  MERGE (f)-[a:ABOUT]->(e)
  SET a.primary = ab.primary
  RETURN count(*) AS about
}
CALL (f, row) {
  UNWIND row.from_events AS eid
  MATCH (ev:Event {id: eid, agent_id: $agent_id})
  MERGE (f)-[:FROM_EVENT]->(ev)
  RETURN count(*) AS events
}
RETURN count(f) AS written
