// Bench helper: empty Neo4j's query plan caches (the next statement is planned from scratch).
// params: none
// returns: value string
CALL db.clearQueryCaches() YIELD value
RETURN value
