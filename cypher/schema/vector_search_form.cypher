// Which vector search the server allows: its kernel version and Cypher versions (25 brings SEARCH, 2026.01+); a 5.26 server reports no Cypher row.
// params: none
// returns: version string, cypher list<string>
CALL dbms.components() YIELD name, versions
WITH collect([name, versions]) AS parts
RETURN [p IN parts WHERE p[0] = 'Neo4j Kernel' | p[1][0]][0] AS version,
       coalesce([p IN parts WHERE p[0] = 'Cypher' | p[1]][0], ['5']) AS cypher
