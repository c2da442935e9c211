// Every property of every node and relationship of the database holding $needle (case-insensitive; lists are searched item by item; embeddings skipped).
// params: $needle string (lowercase), $limit int
// returns: kind string, label string, key string, value string (at most $limit rows)
CALL () {
  MATCH (n)
  UNWIND [k IN keys(n) WHERE k <> 'embedding'] AS k
  RETURN 'node' AS kind, CASE WHEN n:Entity THEN 'Entity' ELSE labels(n)[0] END AS label, k AS key, n[k] AS v
  UNION ALL
  MATCH ()-[r]->()
  UNWIND keys(r) AS k
  RETURN 'relationship' AS kind, type(r) AS label, k AS key, r[k] AS v
}
WITH kind, label, key,
     CASE WHEN v IS :: LIST<ANY> THEN reduce(s = '', x IN v | s + ' ' + toString(x))
          ELSE toString(v) END AS value
WHERE toLower(value) CONTAINS $needle
RETURN kind, label, key, value
LIMIT $limit
