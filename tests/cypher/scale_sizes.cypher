// Bench helper: the database's totals from the count store (constant time at any size).
// params: none
// returns: nodes int, relationships int, facts int, entities int, events int, relates_to int, about int
CALL {
  MATCH (n)
  RETURN count(n) AS nodes
}
CALL {
  MATCH ()-[r]->()
  RETURN count(r) AS relationships
}
CALL {
  MATCH (f:Fact)
  RETURN count(f) AS facts
}
CALL {
  MATCH (e:Entity)
  RETURN count(e) AS entities
}
CALL {
  MATCH (v:Event)
  RETURN count(v) AS events
}
CALL {
  MATCH ()-[r:RELATES_TO]->()
  RETURN count(r) AS relates_to
}
CALL {
  MATCH ()-[r:ABOUT]->()
  RETURN count(r) AS about
}
RETURN nodes, relationships, facts, entities, events, relates_to, about
