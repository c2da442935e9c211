"""The write pipeline: messages become versioned facts, entities, aliases and relationships.

Public surface:

- :class:`WritePipeline` — ``await WritePipeline(executor, embedder, llm).write(...)``.
- :func:`remember` — structured import without any LLM.
- :func:`forget`, :func:`merge_entities` — soft delete and entity merge.
"""

from graph.memory.write.models import (
    ConfigError,
    FactChange,
    PIIRejected,
    RememberResult,
    StructuredEntity,
    StructuredEvent,
    StructuredFact,
    StructuredRelation,
    TokenCounts,
    WriteResult,
)
from graph.memory.write.remember import remember

__all__ = [
    "ConfigError",
    "FactChange",
    "PIIRejected",
    "RememberResult",
    "StructuredEntity",
    "StructuredEvent",
    "StructuredFact",
    "StructuredRelation",
    "TokenCounts",
    "WriteResult",
    "remember",
]
