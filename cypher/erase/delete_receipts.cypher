// Delete the idempotency receipts whose stored result names an erased id or term.
// params: $agent_id string, $ids list<string>, $patterns list<string> (whole-word regexes of the erased names)
// returns: deleted int
MATCH (w:WriteReceipt {agent_id: $agent_id})
WHERE w.result IS NOT NULL
  AND (any(x IN $ids WHERE w.result CONTAINS x)
       OR any(t IN $patterns WHERE (w.result) =~ t))
DETACH DELETE w
RETURN count(*) AS deleted
