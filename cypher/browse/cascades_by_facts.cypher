// Relationships evidenced by facts (the fact id in their evidence_fact_ids): forgetting a fact
// closes those of them with no other active evidence (invalidation/cascade_relationships).
// params: $agent_id string, $ids list<string>, $per_fact int
// returns: id string, rels list<relationship map with source/target keys and names>, oldest first, at most $per_fact each
// Found through the entities the fact is about (the relation's ends) and through the indexed
// current evidence (relates_evidence), so a relation whose ends moved is still found.
UNWIND $ids AS id
MATCH (f:Fact {agent_id: $agent_id, id: id})
CALL (f) {
  CALL (f) {
    MATCH (f)-[:ABOUT]->(:Entity)-[r:RELATES_TO]-(:Entity)
    WHERE r.agent_id = $agent_id
      AND f.id IN coalesce(r.evidence_fact_ids, [r.evidence_fact_id])
    RETURN r
    UNION
    MATCH ()-[r:RELATES_TO {evidence_fact_id: f.id}]->()
    WHERE r.agent_id = $agent_id
    RETURN r
  }
  WITH DISTINCT r
  WITH r, startNode(r) AS s, endNode(r) AS t ORDER BY r.created_at, r.id LIMIT $per_fact
  RETURN collect(r {.id, .type, .strength, .mentions, .confidence, .valid_from, .valid_to,
                    .invalidated_at, .evidence_fact_id, .created_at, .last_seen_at,
                    source_key: s.key, source_name: s.name,
                    target_key: t.key, target_name: t.name}) AS rels
}
RETURN id, rels
