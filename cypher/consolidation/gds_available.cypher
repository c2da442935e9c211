// Whether the Graph Data Science library is installed (PageRank is used only then).
// params: none
// returns: available bool
SHOW FUNCTIONS YIELD name WHERE name = 'gds.version'
RETURN count(*) > 0 AS available
