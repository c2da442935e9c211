// Write a batch of imported entities (MERGE on the agent's key: re-importing rewrites them).
// Its type label follows the agent's ontology (as ontology/relabel_entities): the declared type's label is set, any other type label removed.
// params: $agent_id string, $rows list<{key string, props map}>, $labels map<type string, label string>, $keep list<string> (the product's own labels)
// returns: written int
// The vector is written by db.create.setNodeVectorProperty (32-bit floats), the only write of it;
// a record without a vector leaves a re-imported entity's vector as it is.
UNWIND $rows AS row
WITH row, row.props AS props
MERGE (e:Entity {agent_id: $agent_id, key: row.key})
SET e += CASE WHEN props.embedding IS NULL THEN props ELSE props {.*, embedding: null} END,
    e.agent_id = $agent_id
WITH e, props, CASE WHEN e.type IS NULL OR $labels[e.type] IS NULL THEN [] ELSE [$labels[e.type]] END AS wanted
WITH e, props, wanted, [l IN labels(e) WHERE NOT l IN $keep AND NOT l IN wanted] AS stale
REMOVE e:$(stale)
SET e:$(wanted)
WITH e, props
CALL (e, props) {
  WITH e, props WHERE props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'embedding', props.embedding)
}
RETURN count(e) AS written
