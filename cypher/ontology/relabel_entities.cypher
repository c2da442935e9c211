// Up to $batch entities of an agent after key $after (in key order): each gets the label of its type when the ontology in force declares it ($labels), and loses any other type label (graph/memory/ontology/labels.py runs it until no entity is left).
// params: $agent_id string, $labels map<type string, label string>, $keep list<string> (the product's own labels, never removed), $after string, $batch int
// returns: last string (the batch's last key; null when none was left), visited int
MATCH (e:Entity {agent_id: $agent_id})
USING INDEX SEEK e:Entity(agent_id, key)
WHERE e.key > $after
WITH e ORDER BY e.key LIMIT $batch
WITH e, CASE WHEN e.type IS NULL OR $labels[e.type] IS NULL THEN [] ELSE [$labels[e.type]] END AS wanted
WITH e, wanted, [l IN labels(e) WHERE NOT l IN $keep AND NOT l IN wanted] AS stale
REMOVE e:$(stale)
SET e:$(wanted)
RETURN max(e.key) AS last, count(e) AS visited
