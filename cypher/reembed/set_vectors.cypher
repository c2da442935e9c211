// Replace the vectors of a batch of an agent's nodes (re-embedding); nodes of other agents are left alone.
// params: $agent_id string, $rows list<{eid string, property string ('embedding', or 'gloss_embedding': a fact's English gloss), embedding list<float>}>
// returns: updated int
// Written by db.create.setNodeVectorProperty (32-bit floats), as facts are on creation.
UNWIND $rows AS row
MATCH (n) WHERE elementId(n) = row.eid AND n.agent_id = $agent_id
CALL (n, row) {
  CALL db.create.setNodeVectorProperty(n, row.property, row.embedding)
}
RETURN count(n) AS updated
