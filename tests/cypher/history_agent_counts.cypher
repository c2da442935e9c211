// Counts of one agent's write-side nodes and relationships.
// params: $agent_id string
// returns: entities, facts, active_facts, aliases, alias_links, events, audits, receipts, relations, active_relations, about, from_event, supersedes int
CALL (){ MATCH (e:Entity {agent_id: $agent_id}) RETURN count(e) AS entities }
CALL (){ MATCH (f:Fact {agent_id: $agent_id}) RETURN count(f) AS facts }
CALL (){ MATCH (f:Fact {agent_id: $agent_id}) WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
         RETURN count(f) AS active_facts }
CALL (){ MATCH (a:Alias {agent_id: $agent_id}) RETURN count(a) AS aliases }
CALL (){ MATCH (a:Alias {agent_id: $agent_id})-[l:ALIAS_OF]->() RETURN count(l) AS alias_links }
CALL (){ MATCH (v:Event {agent_id: $agent_id}) RETURN count(v) AS events }
CALL (){ MATCH (a:Audit {agent_id: $agent_id}) RETURN count(a) AS audits }
CALL (){ MATCH (w:WriteReceipt {agent_id: $agent_id}) RETURN count(w) AS receipts }
CALL (){ MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO]->() RETURN count(r) AS relations }
CALL (){ MATCH (:Entity {agent_id: $agent_id})-[r:RELATES_TO]->()
         WHERE r.valid_to IS NULL AND r.invalidated_at IS NULL RETURN count(r) AS active_relations }
CALL (){ MATCH (:Fact {agent_id: $agent_id})-[r:ABOUT]->() RETURN count(r) AS about }
CALL (){ MATCH (:Fact {agent_id: $agent_id})-[r:FROM_EVENT]->() RETURN count(r) AS from_event }
CALL (){ MATCH (:Fact {agent_id: $agent_id})-[r:SUPERSEDES]->() RETURN count(r) AS supersedes }
RETURN entities, facts, active_facts, aliases, alias_links, events, audits, receipts, relations,
       active_relations, about, from_event, supersedes
