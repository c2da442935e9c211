// Take the write lock of each dedup slot (creating it first) so enqueue checks are race-free.
// params: $rows list<{dedup_key string, agent_id string}> (sorted by dedup_key: fixed lock order)
// returns: locked int
UNWIND $rows AS row
MERGE (d:JobDedup {key: row.dedup_key})
  ON CREATE SET d.agent_id = row.agent_id, d.created_at = datetime()
SET d._lock = true
REMOVE d._lock
RETURN count(d) AS locked
