// Schema version 12: operator ontologies, one node per version of a scope's ontology ('tenant' or 'agent' scope; graph/memory/ontology/store.py). The unique version per scope makes two concurrent applies of different documents fail instead of both becoming the same version.
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT ontology_version IF NOT EXISTS
  FOR (o:Ontology) REQUIRE (o.scope, o.scope_id, o.version) IS UNIQUE;
