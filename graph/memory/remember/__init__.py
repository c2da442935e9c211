"""Structured remember: entities, facts, relations and events imported directly, no LLM.

``importer`` (the entry point: redact, resolve, deduplicate, write in UNWIND batches), ``names``
(an import's entity references → entity keys), ``rows`` (size checks, stored fact properties,
the report of items not stored after a partial failure).
"""

from graph.memory.remember.importer import API_MAX_ITEMS, BATCH_SIZE, Progress, remember

__all__ = ["API_MAX_ITEMS", "BATCH_SIZE", "Progress", "remember"]
