// Create or touch entities; profiles are seeded, never overwritten; first embedding kept.
// An entity whose type the ontology in force declares carries it as a label ($labels: type → label; graph/memory/ontology/labels.py).
// params: $agent_id string, $now datetime, $labels map<type string, label string>, $rows list<{key, name, type, importance, source, embedding, profile_text, mentions}>
// returns: key string, created bool
UNWIND $rows AS row
MERGE (e:Entity {agent_id: $agent_id, key: row.key})
ON CREATE SET e.name = row.name, e.type = row.type, e.created_at = $now, e.mentions = 0,
              e.importance = row.importance, e.source = row.source, e._created_by = row.token
SET e.updated_at = $now,
    e.mentions = coalesce(e.mentions, 0) + row.mentions,
    e.profile_refreshed_at = CASE WHEN e.profile_text IS NULL AND row.profile_text IS NOT NULL
                                  THEN $now ELSE e.profile_refreshed_at END
SET e.profile_text = coalesce(e.profile_text, row.profile_text)
WITH e, row, e._created_by = row.token AS created
REMOVE e._created_by
WITH e, row, created
SET e:$(CASE WHEN e.type IS NULL OR $labels[e.type] IS NULL THEN [] ELSE [$labels[e.type]] END)
WITH e, row, created
// The first vector is kept, written as 32-bit floats by the procedure (entity resolution's exact
// scan reads it for every name of a message); an entity that has one is not written again.
CALL (e, row) {
  WITH e, row WHERE row.embedding IS NOT NULL AND e.embedding IS NULL
  CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
}
RETURN e.key AS key, created
