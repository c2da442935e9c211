"""Extraction stage of the write pipeline: a message becomes an :class:`Extraction` (facts,
entities, relations), by the LLM (``llm``, informed by the ``context`` read) or offline
(``offline/``: spaCy and rules, no LLM); ``extraction`` hardens and normalises either answer,
``conform`` fits it to the agent's ontology, ``mentions`` lists the names it mentions (what
resolution resolves), ``stage`` runs the stage (the extraction, then the vectors of its facts
and names in one embedder call)."""
