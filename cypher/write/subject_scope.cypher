// Reconciliation's strategy: per subject, its facts counted up to $max (a bounded read; the exact scan is chosen below that size).
// params: $agent_id string, $keys list<string>, $max int
// returns: key string, subject_facts int (at most $max)
UNWIND $keys AS key
CALL (key) {
  MATCH (f:Fact {agent_id: $agent_id, subject_key: key})
  USING INDEX SEEK f:Fact(agent_id, subject_key)
  WITH f LIMIT $max
  RETURN count(f) AS subject_facts
}
RETURN key, subject_facts
