// APOC version (only called when apoc.* procedures exist).
// params: none
// returns: version string
RETURN apoc.version() AS version
