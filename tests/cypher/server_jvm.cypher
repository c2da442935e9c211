// Bench and test helper: the Java the server runs on and its JVM options, as the server reports them (JMX runtime bean).
// params: none
// returns: version string, arguments list<string>
CALL dbms.queryJmx('java.lang:type=Runtime') YIELD attributes
RETURN attributes.VmVersion.value AS version, attributes.InputArguments.value AS arguments
