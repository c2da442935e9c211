"""Neo4j access for Hippograph: executor, schema, local runtime, providers and the memory pipelines."""
