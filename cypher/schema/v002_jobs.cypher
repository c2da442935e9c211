// Schema version 2: job-queue dedup slots (unique key makes concurrent MERGE race-free).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT job_dedup_slot IF NOT EXISTS FOR (n:JobDedup) REQUIRE n.key IS UNIQUE;
CREATE INDEX job_agent IF NOT EXISTS FOR (n:Job) ON (n.agent_id, n.status);
CREATE INDEX document_agent IF NOT EXISTS FOR (n:Document) ON (n.agent_id);
CREATE INDEX chunk_agent IF NOT EXISTS FOR (n:Chunk) ON (n.agent_id, n.document_id);
