// Schema version 13: an entity carries its type as a label when the ontology in force declares it (Neo4j Browser colours by label; graph/memory/ontology/labels.py). Writes set it; the entities stored before are labelled by schema/backfill_type_labels (the built-in types, agents without an operator's ontology: applying one relabels its scope).
// params: none
// returns: nothing; no statement of its own (graph/schema.py runs the backfill once, when it applies this version)
