// One job by id.
// params: $id string
// returns: job map
MATCH (j:Job {id: $id})
RETURN properties(j) AS job
