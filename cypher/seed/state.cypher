// Which version of the demo seed an agent holds (the marker is written last).
// params: $agent_id string
// returns: version int, loaded_at datetime (no row when never completed)
MATCH (m:HippographMeta {key: 'seed', agent_id: $agent_id})
RETURN m.version AS version, m.loaded_at AS loaded_at
