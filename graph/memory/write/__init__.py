"""The write pipeline: messages become versioned facts, entities, aliases and relationships.

Public surface:

- :class:`WritePipeline` — ``await WritePipeline(executor, embedder, llm).write(...)``;
  ``llm=None`` is the offline path (spaCy + rules).
- :func:`remember` — structured import without any LLM.
- :func:`forget`, :func:`merge_entities` — soft delete and entity merge.

Where each DESIGN.md §4 stage lives (pure decisions in *italics* modules are unit-tested):
guard + PII → ``guard``; event log, reads and the one write transaction → ``store``;
alias lookup / pre-retrieval context → ``store.load_context`` + ``extraction.known_context``;
informed / fallback extraction, disambiguation, reconcile calls → ``llm_stages`` (prompts in
``graph/memory/prompts``); offline extraction → ``offline`` (clauses: ``offline_clauses``,
answers to the other speaker's question: ``offline_answers``, Portuguese: ``offline_pt``);
hardening + normalisation +
semantic dedup → ``extraction``; entity resolution → ``resolve`` (rules) + ``entities``
(orchestration); reconciliation → ``reconcile`` (rules) + ``decide`` (orchestration); mirror
facts, evidence, single-valued supersession, modes, commit rows → ``planning``; candidates,
decisions, plan and the write transaction, receipts → ``commit_stage``; per-call trace →
``trace``; wiring → ``pipeline``. ``remember`` (structured import) → ``remember`` with
``remember_names`` (reference → entity key) and ``remember_rows`` (size checks, fact rows). Round trips per message: 5 (event, context read, entity candidates, fact
candidates, one write transaction); the idempotency claim shares the event's transaction.
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
