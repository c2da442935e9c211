// Fill `terms` (schema version 11) on up to $batch facts and $batch events written before it; graph/schema.py runs it until it updates none.
// params: $batch int
// returns: updated int
// `terms`: the lower-cased text cut into words at spaces and punctuation, each word's first five
// characters (the same expression in every statement that creates a fact or an event;
// read/planner.truncated mirrors it for the question's words).
CALL () {
  MATCH (f:Fact) WHERE f.terms IS NULL AND f.text IS NOT NULL
  WITH f LIMIT $batch
  SET f.terms = trim(reduce(t = '', w IN split(toLower(f.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
  RETURN count(f) AS facts
}
CALL () {
  MATCH (e:Event) WHERE e.terms IS NULL AND e.text IS NOT NULL
  WITH e LIMIT $batch
  SET e.terms = trim(reduce(t = '', w IN split(toLower(e.text), [' ', '\n', '\t', '-', '/', "'", '’', '.', ',', ';', ':', '!', '?', '(', ')', '"', '“', '”']) | CASE WHEN w = '' THEN t ELSE t + ' ' + left(w, 5) END))
  RETURN count(e) AS events
}
RETURN facts + events AS updated
