// One page of a Graphiti graph's episodes (read from Graphiti's own database), in uuid order.
// params: $groups list<string>|null (null: every group), $after string, $limit int
// returns: uuid, name, content, source, source_description, valid_at, created_at, group_id
MATCH (e:Episodic)
WHERE e.uuid > $after AND ($groups IS NULL OR e.group_id IN $groups)
RETURN e.uuid AS uuid, e.name AS name, e.content AS content, e.source AS source,
       e.source_description AS source_description, e.valid_at AS valid_at,
       e.created_at AS created_at, e.group_id AS group_id
ORDER BY uuid
LIMIT $limit
