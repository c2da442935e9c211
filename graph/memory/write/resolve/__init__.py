"""Resolution stage of the write pipeline: every name a message mentions becomes a known
entity or a new one. ``decisions`` decides, purely (exact → fuzzy → LLM → new); ``stage``
gathers the names, fetches their candidates in one read and asks the LLM once for the
ambiguous ones."""
