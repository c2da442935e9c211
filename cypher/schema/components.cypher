// Server name, version and edition (the kernel's row: 2026 servers also list a Cypher row).
// params: none
// returns: name string, version string, edition string
CALL dbms.components() YIELD name, versions, edition
WITH name, versions, edition WHERE name STARTS WITH 'Neo4j'
RETURN name, versions[0] AS version, edition
