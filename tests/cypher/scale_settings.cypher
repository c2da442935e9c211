// Bench helper: the server's memory settings as it runs them (heap, page cache, transaction memory).
// params: $names list<string>
// returns: name string, value string
SHOW SETTINGS YIELD name, value
WHERE name IN $names
RETURN name, value
