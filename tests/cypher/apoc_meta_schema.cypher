// An APOC procedure the code never calls (the allow-list test expects it to be refused).
// params: none
// returns: value map
CALL apoc.meta.schema() YIELD value
RETURN value
