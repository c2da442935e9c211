"""The GraphQL API (strawberry): schema, types, resolvers, permissions."""
