// Which of these fact ids already exist, and for which agent (caller-supplied ids).
// params: $ids list<string>
// returns: id string, agent_id string
UNWIND $ids AS fid
MATCH (f:Fact {id: fid})
RETURN f.id AS id, f.agent_id AS agent_id
