// Schema version 11: the full-text indexes of facts and events also index `terms`, the text's words each cut to its first five characters (the keyword signal's field, see read/planner.lucene_query: one truncation stems every language and meets the cognates of a mixed-language memory), with ASCII folding so "água" and "agua" meet. Writes set `terms` with the expression of schema/backfill_terms; facts and events stored before are filled by it.
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text, n.terms, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
DROP INDEX event_text IF EXISTS;
CREATE FULLTEXT INDEX event_text IF NOT EXISTS FOR (n:Event) ON EACH [n.text, n.terms, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
