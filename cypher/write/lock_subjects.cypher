// Take the write locks of the new facts' subject entities (sorted keys: fixed lock order), so
// concurrent writers of one subject serialize before their exact-duplicate check.
// params: $agent_id string, $keys list<string>
// returns: locked int
UNWIND $keys AS k
MATCH (e:Entity {agent_id: $agent_id, key: k})
SET e._lock = true
REMOVE e._lock
RETURN count(e) AS locked
