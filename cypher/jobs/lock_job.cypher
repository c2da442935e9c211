// Take the write lock of one job for the rest of the transaction (no net property change).
// params: $id string
// returns: id string
MATCH (j:Job {id: $id})
SET j._lock = true
REMOVE j._lock
RETURN j.id AS id
