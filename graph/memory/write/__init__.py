"""The write pipeline: messages become versioned facts, entities, aliases and relationships.

Public surface:

- :class:`WritePipeline` — ``await WritePipeline(executor, embedder, llm).write(...)``.
- :func:`remember` — structured import without any LLM.
- :func:`forget`, :func:`merge_entities` — soft delete and entity merge.
"""

from graph.memory.write.admin import ForgetResult, MergeResult, forget, merge_entities
from graph.memory.write.config import WriteConfig, apply_overrides
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
from graph.memory.write.pipeline import WritePipeline
from graph.memory.write.remember import remember

__all__ = [
    "ConfigError",
    "FactChange",
    "ForgetResult",
    "MergeResult",
    "PIIRejected",
    "RememberResult",
    "StructuredEntity",
    "StructuredEvent",
    "StructuredFact",
    "StructuredRelation",
    "TokenCounts",
    "WriteConfig",
    "WritePipeline",
    "WriteResult",
    "apply_overrides",
    "forget",
    "merge_entities",
    "remember",
]
