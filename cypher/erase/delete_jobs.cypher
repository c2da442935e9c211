// Delete the jobs (and their dedup slots) whose subject, payload, result or error names an erased id or term.
// params: $agent_id string, $ids list<string>, $patterns list<string> (whole-word regexes of the erased names)
// returns: deleted int
MATCH (j:Job {agent_id: $agent_id})
WITH j, coalesce(j.subject, '') + ' ' + coalesce(j.payload, '') + ' ' + coalesce(j.result, '')
        + ' ' + coalesce(j.last_error, '') + ' ' + coalesce(j.dedup_key, '') AS blob
WHERE j.subject IN $ids OR any(x IN $ids WHERE blob CONTAINS x)
   OR any(t IN $patterns WHERE (blob) =~ t)
OPTIONAL MATCH (d:JobDedup {key: j.dedup_key})
DETACH DELETE d, j
RETURN count(DISTINCT j) AS deleted
