// Test helper (e2e scale-out): what one agent holds, its duplicates and its unprocessed work.
// params: $agent_id string
// returns: events int, event_texts list<string>, facts int, entities int, chunks int, dup_entity_names list<string>,
//          dup_facts list<string>, dup_job_keys list<string>, jobs list<string> ('status:kind=n'),
//          events_without_facts list<string>
CALL { MATCH (e:Event {agent_id: $agent_id}) RETURN count(e) AS events, collect(e.text) AS event_texts }
CALL { MATCH (f:Fact {agent_id: $agent_id})
       WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL RETURN count(f) AS facts }
CALL { MATCH (n:Entity {agent_id: $agent_id}) RETURN count(n) AS entities }
CALL { MATCH (c:Chunk {agent_id: $agent_id}) RETURN count(c) AS chunks }
CALL { MATCH (n:Entity {agent_id: $agent_id})
       WITH toLower(n.name) AS name, count(*) AS c WHERE c > 1
       RETURN collect(name) AS dup_entity_names }
CALL { MATCH (f:Fact {agent_id: $agent_id})
       WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
       WITH toLower(f.text) AS text, count(*) AS c WHERE c > 1
       RETURN collect(text) AS dup_facts }
CALL { MATCH (j:Job {agent_id: $agent_id})
       WITH j.dedup_key AS k, count(*) AS c WHERE c > 1
       RETURN collect(k) AS dup_job_keys }
CALL { MATCH (j:Job {agent_id: $agent_id})
       WITH j.status + ':' + j.kind AS s, count(*) AS c ORDER BY s
       RETURN collect(s + '=' + toString(c)) AS jobs }
CALL { MATCH (e:Event {agent_id: $agent_id})
       WHERE NOT (e)<-[:FROM_EVENT]-(:Fact)
       RETURN collect(e.text) AS events_without_facts }
RETURN events, event_texts, facts, entities, chunks, dup_entity_names, dup_facts, dup_job_keys, jobs,
       events_without_facts
