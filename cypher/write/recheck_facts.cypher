// In-transaction re-check under locks (subject entities and target facts are locked first):
// params: $agent_id string, $hashes list<string>, $ids list<string>
// returns: active_by_hash list<{hash string, id string}>, inactive list<string>
// active facts that already hold a new fact's content hash (a concurrent identical message
// committed first), and target facts that are no longer active (a concurrent update closed
// them). Either means the decisions were made on stale reads.
CALL (*) {
  UNWIND $hashes AS h
  MATCH (f:Fact {agent_id: $agent_id, content_hash: h})
  USING INDEX f:Fact(agent_id, content_hash)  // as in write/facts_by_hash
  WHERE f.valid_to IS NULL AND f.invalidated_at IS NULL
  RETURN collect({hash: h, id: f.id}) AS active_by_hash
}
CALL (*) {
  UNWIND $ids AS fid
  OPTIONAL MATCH (f:Fact {id: fid, agent_id: $agent_id})
  WITH fid, f
  WHERE f IS NULL OR f.valid_to IS NOT NULL OR f.invalidated_at IS NOT NULL
  RETURN collect(fid) AS inactive
}
RETURN active_by_hash, inactive
