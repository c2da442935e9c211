// Test helper: how many Fact nodes the whole database holds (every agent), so a test of the bare
// vector index can ask for enough neighbours that other agents' facts cannot crowd its own out.
// params: none
// returns: facts int
MATCH (f:Fact)
RETURN count(f) AS facts
