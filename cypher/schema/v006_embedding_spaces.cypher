// Schema version 6: one record per agent of the embedding model its vectors come from (graph/memory/spaces.py).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT agent_embedder_id IF NOT EXISTS FOR (s:AgentEmbedder) REQUIRE s.agent_id IS UNIQUE;
