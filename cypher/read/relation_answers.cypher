// Relation answers: the facts that evidence the named entities' visible relationships whose type has a word starting with one of the question's relation stems ("Where does Ana live?" → Ana's lives_in → the fact that said so).
// params: $agent_id string, $keys list<string>, $terms list<string>, $as_of datetime|null
// returns: id string (the evidence fact's id)
UNWIND $keys AS key
MATCH (e:Entity {agent_id: $agent_id, key: key})-[r:RELATES_TO]->(:Entity)
WHERE r.evidence_fact_id IS NOT NULL
  AND any(w IN split(r.type, '_') WHERE any(t IN $terms WHERE w STARTS WITH t))
  AND (($as_of IS NULL AND r.valid_to IS NULL AND r.invalidated_at IS NULL)
    OR ($as_of IS NOT NULL AND coalesce(r.created_at, r.valid_from) <= $as_of
        AND (r.invalidated_at IS NULL OR r.invalidated_at > $as_of)
        AND coalesce(r.valid_from, r.created_at) <= $as_of
        AND (r.valid_to IS NULL OR r.valid_to > $as_of)))
RETURN DISTINCT r.evidence_fact_id AS id
