// Every index with its state, for readiness checks and ensure_schema's wait.
// params: none
// returns: name string, type string, state string, population float, options map
SHOW INDEXES YIELD name, type, state, populationPercent, options
RETURN name, type, state, populationPercent AS population, options
