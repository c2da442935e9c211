"""Resolution stage of the write pipeline: every name a message mentions becomes a known
entity or a new one. ``decisions`` decides, purely (exact → fuzzy → LLM → new);
``candidates`` reads the stored entities near each name in one read; ``llm`` asks once for the
ambiguous ones; ``stage`` runs the stage."""
