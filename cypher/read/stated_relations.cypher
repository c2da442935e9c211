// The relation types each fact of $ids states, among $types: those of the RELATES_TO relationships that name it as evidence (its id in evidence_fact_ids, found through the entities the fact is about, or their current evidence_fact_id, relates_evidence index; as browse/cascades_by_facts), whatever the relationship's state: the fact's own validity is the retrieve's. retrieve's relation-type filter and boost (graph/memory/read/focus.py).
// params: $agent_id string, $ids list<string>, $types list<string>
// returns: fact_id string, types list<string>
UNWIND $ids AS id
MATCH (f:Fact {agent_id: $agent_id, id: id})
CALL (f) {
  MATCH (f)-[:ABOUT]->(:Entity)-[r:RELATES_TO]-(:Entity)
  WHERE r.agent_id = $agent_id AND r.type IN $types
    AND f.id IN coalesce(r.evidence_fact_ids, [r.evidence_fact_id])
  RETURN r.type AS type
  UNION
  MATCH ()-[r:RELATES_TO {evidence_fact_id: f.id}]->()
  WHERE r.agent_id = $agent_id AND r.type IN $types
  RETURN r.type AS type
}
RETURN id AS fact_id, collect(DISTINCT type) AS types
