// Server name, version and edition.
// params: none
// returns: name string, version string, edition string
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions[0] AS version, edition
