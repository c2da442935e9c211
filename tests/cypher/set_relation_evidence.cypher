// Give an agent's relationships of one type a list of supporting facts (evidence fixtures).
// params: $agent_id string, $type string, $evidence list<string>
// returns: id string
MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO {type: $type}]->()
SET r.evidence_fact_ids = $evidence, r.evidence_fact_id = $evidence[size($evidence) - 1]
RETURN r.id AS id
