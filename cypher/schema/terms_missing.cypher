// Whether a fact or an event lacks `terms` (schema version 11); graph/schema.py backfills when missing is not 0.
// params: none
// returns: missing int (0 or 1: stops at the first one)
RETURN CASE WHEN EXISTS { MATCH (f:Fact) WHERE f.terms IS NULL AND f.text IS NOT NULL }
              OR EXISTS { MATCH (e:Event) WHERE e.terms IS NULL AND e.text IS NOT NULL }
            THEN 1 ELSE 0 END AS missing
