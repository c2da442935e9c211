// Schema version 9: one counter node per agent (facts, events, observations) kept by the write and delete statements, so read/agent_counts costs the same at any agent size.
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT agent_stats_id IF NOT EXISTS FOR (s:AgentStats) REQUIRE s.agent_id IS UNIQUE;
