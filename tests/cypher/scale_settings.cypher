// Bench and test helper: the named settings as the server runs them (the scale bench's memory settings, the local runtime's test of its own).
// params: $names list<string>
// returns: name string, value string
SHOW SETTINGS YIELD name, value
WHERE name IN $names
RETURN name, value
