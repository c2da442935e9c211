// GDS version (only called when gds.* procedures exist).
// params: none
// returns: version string
RETURN gds.version() AS version
