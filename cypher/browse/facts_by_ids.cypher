// Facts of one agent by id.
// params: $agent_id string, $ids list<string>
// returns: fact map (no embedding) for every id that exists
UNWIND $ids AS id
MATCH (f:Fact {agent_id: $agent_id, id: id})
RETURN f {.id, .text, .subject_key, .kind, .confidence, .importance, .importance_category,
          .temporal_class, .valid_until, .categories, .language, .speaker, .valid_from,
          .valid_to, .invalidated_at, .created_at, .last_confirmed_at, .reinforcement_count,
          .review_needed} AS fact
