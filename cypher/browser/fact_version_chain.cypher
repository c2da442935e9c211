// A fact's version chain: the newest fact whose text contains $fact_text and every version it replaced.
// params: $agent_id string, $fact_text string (case-insensitive substring, e.g. 'Lisboa')
// returns: p path (newest)-[:SUPERSEDES*]->(older versions), plus each version's validity
MATCH (newest:Fact {agent_id: $agent_id})
WHERE toLower(newest.text) CONTAINS toLower($fact_text)
  AND NOT EXISTS { MATCH (:Fact)-[:SUPERSEDES]->(newest) }
MATCH p = (newest)-[:SUPERSEDES*0..20]->(old:Fact)
RETURN p, old.text AS version, old.valid_from AS valid_from, old.valid_to AS valid_to
ORDER BY length(p)
