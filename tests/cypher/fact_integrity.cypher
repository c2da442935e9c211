// Integrity of one agent's memory under concurrency: duplicated active facts, forked versions.
// params: $agent_id string
// returns: duplicate_hashes int, forked int, duplicate_entity_names int, active_facts int
CALL () { MATCH (f:Fact {agent_id: $agent_id})
          WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
          WITH f.content_hash AS h, count(*) AS n WHERE n > 1
          RETURN count(h) AS duplicate_hashes }
CALL () { MATCH (o:Fact {agent_id: $agent_id})<-[:SUPERSEDES]-(n:Fact)
          WHERE n.valid_to IS NULL AND n.invalidated_at IS NULL
          WITH o, count(n) AS k WHERE k > 1
          RETURN count(o) AS forked }
CALL () { MATCH (e:Entity {agent_id: $agent_id})
          WITH toLower(e.name) AS name, count(*) AS n WHERE n > 1
          RETURN count(name) AS duplicate_entity_names }
CALL () { MATCH (f:Fact {agent_id: $agent_id})
          WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
          RETURN count(f) AS active_facts }
RETURN duplicate_hashes, forked, duplicate_entity_names, active_facts
