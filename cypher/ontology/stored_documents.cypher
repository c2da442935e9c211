// The newest document of every stored ontology (every tenant's and agent's; a reset scope has none): the Browser style for an admin key colours the labels of their entity types (server/browser_guide.py).
// params: none
// returns: document string (JSON; one row per scope)
MATCH (o:Ontology)
WITH o.scope AS scope, o.scope_id AS scope_id, max(o.version) AS version
MATCH (o:Ontology {scope: scope, scope_id: scope_id, version: version})
WHERE o.document IS NOT NULL
RETURN o.document AS document
