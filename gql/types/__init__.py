"""GraphQL object types, one module per family (entities, facts, events, graph, memory, admin)."""
