// Test helper: an agent's facts, events and observations counted node by node (the reference its AgentStats counter must equal).
// params: $agent_id string
// returns: agent_facts int, agent_events int, agent_observations int, counters int (AgentStats nodes of the agent)
RETURN COUNT { (f:Fact {agent_id: $agent_id}) } AS agent_facts,
       COUNT { (v:Event {agent_id: $agent_id}) } AS agent_events,
       COUNT { (o:Observation {agent_id: $agent_id}) } AS agent_observations,
       COUNT { (s:AgentStats {agent_id: $agent_id}) } AS counters
