// Audit records naming erased ids, or whose text names an erased name: what the erase scrubs.
// params: $agent_id string, $ids list<string>, $patterns list<string> (whole-word regexes of the erased names)
// returns: id string, text string, reason string, target_id string
MATCH (a:Audit {agent_id: $agent_id})
WHERE a.fact_id IN $ids OR a.target_id IN $ids OR a.event_id IN $ids
   OR any(t IN $patterns WHERE (coalesce(a.text, '') + ' ' + coalesce(a.reason, '') + ' '
                                    + coalesce(a.target_id, '') + ' '
                                    + coalesce(a.blocked_reason, '')) =~ t)
RETURN a.id AS id, a.text AS text, a.reason AS reason, a.target_id AS target_id
