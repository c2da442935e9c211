"""Extraction stage of the write pipeline: a message becomes an :class:`Extraction` (facts,
entities, relations), by the LLM (``graph.memory.write.llm_stages``) or offline (``offline/``:
spaCy and rules, no LLM); ``extraction`` hardens and normalises either answer, ``stage`` runs
the stage (the extraction, then the vectors of its facts and names in one embedder call)."""
