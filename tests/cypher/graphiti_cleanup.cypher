// Test helper (peer imports): delete a Graphiti-shaped fixture graph by its group_id.
// params: $group string
// returns: deleted int
MATCH (n {group_id: $group})
DETACH DELETE n
RETURN count(*) AS deleted
