"""The write pipeline: messages become versioned facts, entities, aliases and relationships.

Public surface:

- :class:`WritePipeline` — ``await WritePipeline(executor, embedder, llm).write(...)``;
  ``llm=None`` is the offline path (spaCy + rules).
- :func:`remember` — structured import without any LLM.
- :func:`forget`, :func:`merge_entities` — soft delete and entity merge.

Rooms (modules with pure decisions are unit-tested without a database):

- Message path, stage by stage: ``guard`` (empty, oversized, control characters; PII) →
  ``store`` (event log, context read, the one write transaction) → ``llm_stages`` (informed / fallback extraction,
  disambiguation, reconcile calls; prompts in ``graph/memory/prompts``) or ``extract/offline/`` (spaCy +
  rules, no LLM) → ``extract/extraction`` (hardening, normalisation, semantic dedup) → ``resolve/``
  (entity resolution: ``decisions``, ``stage``) → ``reconcile/`` (``decisions``, ``stage``: ADD / UPDATE / DELETE /
  NOOP) → ``planning`` (mirror facts, evidence, supersession, commit rows) →
  ``commit_stage`` (candidates, plan, write, receipts); ``trace`` records each call,
  ``pipeline`` checks the call and logs the event, ``stages`` runs the rest
  (``extract/stage``, ``assemble``, ``shared_tx``). Transactions per message: 5 on the LLM
  path (event, context read, entity candidates, fact candidates, the write transaction), 2
  offline (the event, then reads, decisions and writes in one transaction).
- ``extract/``: the extraction stage; ``extract/offline/``, the offline extractor (``extractor``, ``clauses``, ``answers``, ``portuguese``).
- ``remember/``: structured import (``importer``, ``names``, ``rows``).
- Around them: ``models`` (inputs and results), ``config`` (``WriteConfig`` and overrides),
  ``redact`` (PII policy for imports), ``admin`` (forget, merge), ``failed`` (failed writes).
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
