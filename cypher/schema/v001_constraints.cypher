// Schema version 1: uniqueness constraints, range and full-text indexes (idempotent).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT event_id IF NOT EXISTS FOR (n:Event) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.agent_id, n.key) IS UNIQUE;
CREATE CONSTRAINT alias_norm IF NOT EXISTS FOR (n:Alias) REQUIRE (n.agent_id, n.norm) IS UNIQUE;
CREATE CONSTRAINT observation_id IF NOT EXISTS FOR (n:Observation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT merge_candidate_id IF NOT EXISTS FOR (n:MergeCandidate) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT audit_id IF NOT EXISTS FOR (n:Audit) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT job_id IF NOT EXISTS FOR (n:Job) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (n:Chunk) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (n:ApiKey) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT write_receipt_key IF NOT EXISTS FOR (n:WriteReceipt) REQUIRE (n.agent_id, n.key) IS UNIQUE;
CREATE INDEX event_agent IF NOT EXISTS FOR (n:Event) ON (n.agent_id, n.occurred_at);
CREATE INDEX event_hash IF NOT EXISTS FOR (n:Event) ON (n.agent_id, n.content_hash);
CREATE INDEX fact_agent IF NOT EXISTS FOR (n:Fact) ON (n.agent_id);
CREATE INDEX fact_subject IF NOT EXISTS FOR (n:Fact) ON (n.agent_id, n.subject_key);
CREATE INDEX fact_hash IF NOT EXISTS FOR (n:Fact) ON (n.agent_id, n.content_hash);
CREATE INDEX fact_valid_to IF NOT EXISTS FOR (n:Fact) ON (n.valid_to);
CREATE INDEX fact_invalidated_at IF NOT EXISTS FOR (n:Fact) ON (n.invalidated_at);
CREATE INDEX fact_valid_until IF NOT EXISTS FOR (n:Fact) ON (n.valid_until);
CREATE INDEX entity_agent IF NOT EXISTS FOR (n:Entity) ON (n.agent_id, n.type);
CREATE INDEX observation_agent IF NOT EXISTS FOR (n:Observation) ON (n.agent_id);
CREATE INDEX audit_agent IF NOT EXISTS FOR (n:Audit) ON (n.agent_id, n.created_at);
CREATE INDEX job_status IF NOT EXISTS FOR (n:Job) ON (n.status, n.run_after);
CREATE INDEX job_dedup IF NOT EXISTS FOR (n:Job) ON (n.dedup_key);
CREATE INDEX merge_candidate_agent IF NOT EXISTS FOR (n:MergeCandidate) ON (n.agent_id, n.status);
CREATE INDEX api_key_hash IF NOT EXISTS FOR (n:ApiKey) ON (n.key_hash);
CREATE INDEX relates_evidence IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.evidence_fact_id);
CREATE INDEX relates_id IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.id);
CREATE INDEX relates_valid_to IF NOT EXISTS FOR ()-[r:RELATES_TO]-() ON (r.valid_to);
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
CREATE FULLTEXT INDEX event_text IF NOT EXISTS FOR (n:Event) ON EACH [n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (n:Entity|Alias) ON EACH [n.name, n.text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
