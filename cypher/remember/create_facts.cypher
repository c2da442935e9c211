// Create imported facts and link each to every entity it is about, in one pass.
// params: $agent_id string, $now datetime, $rows list<{id string, props map, keys list<string>}>
// returns: linked int
// `keys` is the subject first, then the mentioned entities (never the subject again): the link
// to the subject is the primary one. props.created_at and props.valid_from are the caller's
// or null: null takes the import's $now (sent once, not once per row: the driver encodes
// every datetime in Python); last_confirmed_at is created_at. MERGE on the fact id and the
// link keeps a retried transaction idempotent; the fact is new in the normal case, so the link
// MERGE only looks at its own few relationships. Every fact created adds one to the agent's
// AgentStats counter (read/agent_counts), itself created on first use from the agent's counts.
// The entities are looked up before any write, sought on the (agent_id, key) constraint
// (USING INDEX SEEK: after the fact writes, and on Neo4j 2026 even before them, the planner
// scanned that index for every link instead of seeking it).
// The vector is written by db.create.setNodeVectorProperty (32-bit floats, half the bytes
// of a list property: every cosine of the traversal, spreading activation and the exact scan reads it),
// the only write of it: props go in without it. So is the vector of a fact's English gloss
// (props.gloss_embedding, null without a gloss).
// `terms` (the keyword signal's field): the expression of schema/backfill_terms.
UNWIND $rows AS row
CALL (row) {
  UNWIND row.keys AS entity_key
  MATCH (e:Entity {agent_id: $agent_id, key: entity_key})
    USING INDEX SEEK e:Entity(agent_id, key)
  RETURN collect({entity: e, primary: entity_key = row.keys[0]}) AS about
}
WITH collect({row: row, about: about}) AS facts
MERGE (s:AgentStats {agent_id: $agent_id})
  ON CREATE SET s.counting = true
WITH s, facts
CALL (s) {
  WITH s
  WHERE s.counting
  SET s.facts = COUNT { (x:Fact {agent_id: $agent_id}) },
      s.events = COUNT { (x:Event {agent_id: $agent_id}) },
      s.observations = COUNT { (x:Observation {agent_id: $agent_id}) }
  REMOVE s.counting
}
UNWIND facts AS fact
WITH s, fact.row AS row, fact.row.props AS props, fact.about AS about
MERGE (f:Fact {id: row.id})
ON CREATE SET f += props {.*, embedding: null, gloss_embedding: null}, f.agent_id = $agent_id, s.facts = s.facts + 1,
              f.created_at = coalesce(row.props.created_at, $now),
              f.last_confirmed_at = coalesce(row.props.created_at, $now),
              f.valid_from = coalesce(row.props.valid_from, row.props.created_at, $now),
              f.terms = trim(reduce(t = '', w IN split(toLower(props.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
WITH f, about, row
CALL (f, row) {
  WITH f, row WHERE row.props.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'embedding', row.props.embedding)
}
CALL (f, row) {
  WITH f, row WHERE row.props.gloss_embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(f, 'gloss_embedding', row.props.gloss_embedding)
}
WITH f, about
UNWIND about AS link
WITH f, link.entity AS e, link.primary AS primary
MERGE (f)-[a:ABOUT]->(e)
SET a.primary = primary
RETURN count(a) AS linked
