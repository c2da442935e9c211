// Charge a document's bytes to its API key's quota for the current window (locks the key).
// params: $key_id string, $document_id string, $bytes int, $limit int, $window_s int, $now datetime
// returns: ok bool, used int (bytes charged in the window before this one); no row: no such key
MATCH (k:ApiKey {id: $key_id})
SET k.doc_quota_touched_at = $now
WITH k
OPTIONAL MATCH (d:Document {id: $document_id})
WITH k, d, coalesce(d.quota_charged, false) AS charged,
     k.doc_window_start IS NULL
       OR k.doc_window_start + duration({seconds: $window_s}) <= $now AS expired
WITH k, d, charged, expired,
     CASE WHEN expired THEN 0 ELSE coalesce(k.doc_bytes, 0) END AS used
WITH k, d, charged, expired, used, charged OR used + $bytes <= $limit AS ok
FOREACH (_ IN CASE WHEN ok AND NOT charged THEN [1] ELSE [] END |
  SET k.doc_bytes = used + $bytes,
      k.doc_window_start = CASE WHEN expired THEN $now ELSE k.doc_window_start END)
FOREACH (_ IN CASE WHEN ok AND d IS NOT NULL THEN [1] ELSE [] END | SET d.quota_charged = true)
RETURN ok, used
