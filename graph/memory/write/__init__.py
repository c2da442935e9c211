"""The write pipeline: messages become versioned facts, entities, aliases and relationships.

Public surface: :class:`WritePipeline` — ``await WritePipeline(executor, embedder,
llm).write(...)``; ``llm=None`` is the offline path (spaCy + rules) — with its configuration
(:class:`WriteConfig`, :func:`apply_overrides`) and results (``models``).

A message goes through one package per stage, in this order (docs/architecture.md):

- ``pipeline``: the call — checks, the guard, the idempotent event; ``sequence``: the stages
  after the event, in one shared transaction offline (``shared_tx``), in their own ones on the
  LLM path.
- ``guard/``: empty, oversized and control-character input (``message``); the PII policy
  (``pii``).
- ``extract/``: the message becomes an extraction — by the LLM (``llm``, with the ``context``
  read) or offline (``offline/``); ``extraction`` hardens and normalises it, ``conform`` fits it
  to the agent's ontology, ``stage`` runs the stage.
- ``resolve/``: every name becomes a known entity or a new one (``decisions``, ``candidates``,
  ``llm``, ``stage``).
- ``reconcile/``: the items (``assemble``, ``items``) against the facts already known — ADD /
  UPDATE / DELETE / NOOP (``decisions``, ``candidates``, ``llm``, ``stage``).
- ``commit/``: the plan of rows (``plan``), the event log and the one write transaction
  (``store``), the stage with its receipt (``stage``).

Shared by the stages: ``config`` (``WriteConfig`` and overrides), ``models`` (inputs and
results), ``llm`` (the write's model session), ``overfetch`` (nearest-neighbour reads),
``trace`` (each call's record), ``failed`` (failed writes). Transactions per message: 5 on the
LLM path (event, context read, entity candidates, fact candidates, the write transaction), 2
offline (the event, then reads, decisions and writes in one transaction).
"""

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
    "WriteConfig",
    "WritePipeline",
    "WriteResult",
    "apply_overrides",
]
