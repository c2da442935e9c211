// One page of a Graphiti graph's entity edges (RELATES_TO with a uuid), in uuid order, with
// the names of both entities.
// params: $groups list<string>|null (null: every group), $after string, $limit int
// returns: uuid, source, target (entity names), name, fact, episodes, created_at, valid_at, invalid_at, expired_at
MATCH (a:Entity)-[r:RELATES_TO]->(b:Entity)
WHERE r.uuid > $after AND ($groups IS NULL OR r.group_id IN $groups)
RETURN r.uuid AS uuid, a.name AS source, b.name AS target, r.name AS name, r.fact AS fact,
       r.episodes AS episodes, r.created_at AS created_at, r.valid_at AS valid_at,
       r.invalid_at AS invalid_at, r.expired_at AS expired_at
ORDER BY uuid
LIMIT $limit
