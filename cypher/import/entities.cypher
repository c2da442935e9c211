// Write a batch of imported entities (MERGE on the agent's key: re-importing rewrites them).
// params: $agent_id string, $rows list<{key string, props map}>
// returns: written int
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of it;
// a record without a vector leaves a re-imported entity's vector as it is.
UNWIND $rows AS row
WITH row, row.props AS props
MERGE (e:Entity {agent_id: $agent_id, key: row.key})
SET e += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    e.agent_id = $agent_id
WITH e, props
CALL (e, props) {
  WITH e, props WHERE props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'embedding', props.embedding)
}
RETURN count(e) AS written
