// Merge $drop_key into $keep_key: aliases, ABOUT links, fact subjects move; the dropped node stays, marked merged_into.
// params: $agent_id string, $keep_key string, $drop_key string, $now datetime, $hashes list<{id string, content_hash string}>
// returns: aliases int, about int, facts int
MATCH (keep:Entity {agent_id: $agent_id, key: $keep_key})
MATCH (gone:Entity {agent_id: $agent_id, key: $drop_key})
WHERE keep <> gone AND keep.merged_into IS NULL AND gone.merged_into IS NULL
CALL (keep, gone) {
  OPTIONAL MATCH (a:Alias)-[old:ALIAS_OF]->(gone)
  FOREACH (_ IN CASE WHEN a IS NULL THEN [] ELSE [1] END |
    MERGE (a)-[:ALIAS_OF]->(keep)
    DELETE old)
  RETURN count(a) AS aliases
}
CALL (keep, gone) {
  OPTIONAL MATCH (f:Fact)-[old:ABOUT]->(gone)
  FOREACH (_ IN CASE WHEN f IS NULL THEN [] ELSE [1] END |
    MERGE (f)-[n:ABOUT]->(keep)
    SET n.primary = coalesce(n.primary, false) OR coalesce(old.primary, false)
    DELETE old)
  RETURN count(f) AS about
}
CALL () {
  UNWIND $hashes AS h
  MATCH (f:Fact {id: h.id, agent_id: $agent_id})
  SET f.subject_key = $keep_key, f.content_hash = h.content_hash
  RETURN count(f) AS facts
}
SET keep.mentions = coalesce(keep.mentions, 0) + coalesce(gone.mentions, 0),
    keep.profile_text = coalesce(keep.profile_text, gone.profile_text),
    keep.updated_at = $now,
    gone.merged_into = $keep_key, gone.merged_at = $now, gone.embedding = null
RETURN aliases, about, facts
