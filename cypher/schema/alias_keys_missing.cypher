// How many aliases lack Alias.agent_norm (schema version 10): all aliases (count store) less those in the alias_agent_norm index; graph/schema.py backfills when it is not 0.
// params: none
// returns: missing int
CALL {
  MATCH (a:Alias)
  RETURN count(a) AS aliases
}
CALL {
  MATCH (k:Alias) WHERE k.agent_norm IS NOT NULL
  RETURN count(k) AS keyed
}
RETURN aliases - keyed AS missing
