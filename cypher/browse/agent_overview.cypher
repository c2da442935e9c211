// What one agent's memory holds: active facts and entities, and the most important entities.
// params: $agent_id string, $top int (how many entities to list)
// returns: entities int, active_facts int, events int, documents int, top list<map> (key, name, type, importance, summary, facts)
CALL () { MATCH (e:Entity {agent_id: $agent_id}) WHERE e.merged_into IS NULL RETURN count(e) AS entities }
CALL () { MATCH (f:Fact {agent_id: $agent_id}) WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
          RETURN count(f) AS active_facts }
CALL () { MATCH (v:Event {agent_id: $agent_id}) RETURN count(v) AS events }
CALL () { MATCH (d:Document {agent_id: $agent_id}) RETURN count(d) AS documents }
CALL () {
  MATCH (e:Entity {agent_id: $agent_id}) WHERE e.merged_into IS NULL
  WITH e ORDER BY coalesce(e.importance, 0) DESC, coalesce(e.mentions, 0) DESC, e.key LIMIT $top
  OPTIONAL MATCH (f:Fact)-[:ABOUT]->(e) WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  WITH e, count(f) AS facts
  ORDER BY coalesce(e.importance, 0) DESC, coalesce(e.mentions, 0) DESC, e.key
  RETURN collect(e {.key, .name, .type, .importance, summary: coalesce(e.summary_text, e.profile_text),
                    facts: facts}) AS top
}
RETURN entities, active_facts, events, documents, top
