// Which optional plugins are loaded (APOC, GDS), by procedure-name prefix.
// params: none
// returns: apoc int, gds int
SHOW PROCEDURES YIELD name
RETURN sum(CASE WHEN name STARTS WITH 'apoc.' THEN 1 ELSE 0 END) AS apoc,
       sum(CASE WHEN name STARTS WITH 'gds.' THEN 1 ELSE 0 END) AS gds
