// One page of a Graphiti graph's entity nodes, in uuid order (nodes without a uuid are not Graphiti's).
// params: $groups list<string>|null (null: every group), $after string, $limit int
// returns: uuid, name, labels list<string>, summary, created_at, group_id
MATCH (n:Entity)
WHERE n.uuid > $after AND ($groups IS NULL OR n.group_id IN $groups)
RETURN n.uuid AS uuid, n.name AS name, labels(n) AS labels, n.summary AS summary,
       n.created_at AS created_at, n.group_id AS group_id
ORDER BY uuid
LIMIT $limit
