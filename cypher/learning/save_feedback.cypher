// Record (or replace) a verdict on one fact of one retrieve, with the fact's feature row of that retrieve.
// params: $id string, $tenant string, $agent_id string, $retrieve_id string, $fact_id string, $helpful boolean, $features list<float>, $vocabulary string, $now datetime
// returns: id string
MERGE (f:RankFeedback {id: $id})
SET f.tenant = $tenant, f.agent_id = $agent_id, f.retrieve_id = $retrieve_id,
    f.fact_id = $fact_id, f.helpful = $helpful, f.features = $features,
    f.vocabulary = $vocabulary, f.created_at = $now
RETURN f.id AS id
