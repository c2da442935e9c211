// Bench helper: every index with its id (to find its directory on disk), kind and population.
// params: none
// returns: id int, name string, type string, entity string, labels list<string>, properties list<string>, populated float
SHOW INDEXES YIELD id, name, type, entityType, labelsOrTypes, properties, populationPercent
RETURN id, name, type, entityType AS entity, labelsOrTypes AS labels, properties, populationPercent AS populated
ORDER BY name
