// The distinct (created_at, valid_from, last_confirmed_at) of an agent's facts, with how many
// ABOUT links of each fact are primary.
// params: $agent_id string
// returns: created_at datetime, valid_from datetime, last_confirmed_at datetime, primary int
MATCH (f:Fact {agent_id: $agent_id})
RETURN DISTINCT f.created_at AS created_at, f.valid_from AS valid_from,
       f.last_confirmed_at AS last_confirmed_at,
       COUNT { (f)-[a:ABOUT]->(:Entity) WHERE a.primary } AS primary
