// Schema version 15: learning the ranking from users. Feedback on retrieved facts (a `RankFeedback` per retrieve and fact, keyed by `id`, holding the fact's feature row of that retrieve; graph/memory/learning) and the versions of each tenant's ranking model (`RankerModel`, unique per tenant and version, as ontologies are).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT rank_feedback_id IF NOT EXISTS
  FOR (f:RankFeedback) REQUIRE f.id IS UNIQUE;
CREATE INDEX rank_feedback_tenant IF NOT EXISTS FOR (f:RankFeedback) ON (f.tenant);
CREATE INDEX rank_feedback_agent IF NOT EXISTS FOR (f:RankFeedback) ON (f.agent_id);
CREATE CONSTRAINT ranker_model_version IF NOT EXISTS
  FOR (m:RankerModel) REQUIRE (m.tenant, m.version) IS UNIQUE;
