// Schema version 7: the full-text indexes of facts and events also index agent_id, so a keyword query is limited to one agent inside the index (a zero-weight agent_id phrase, see read/planner.agent_lucene) instead of fetching every agent's best hits and dropping the others'.
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
DROP INDEX event_text IF EXISTS;
CREATE FULLTEXT INDEX event_text IF NOT EXISTS FOR (n:Event) ON EACH [n.text, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}};
