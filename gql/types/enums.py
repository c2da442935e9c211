"""Every closed set of values the API exposes, as GraphQL enums, and the one mapping to and from
the pipeline's strings.

Each member's *value* is the string the pipelines store and compare (``"fact"``, ``"pending"``,
``"ADD"``...); its *name* is what GraphQL clients see (``FACT``, ``PENDING``, ``ADD``). So
``Enum(pipeline_string)`` maps out and ``member.value`` maps in; :func:`to_api` and
:func:`to_pipeline` are the only helpers resolvers use. ``tests/unit/gql/test_enums.py`` checks
the members against the pipeline constants, so a new kind or status cannot be forgotten here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar, cast

import strawberry

from graph.memory.jobs.context import JOB_ERROR_CODES
from graph.memory.maintenance.kinds import JOB_KINDS, MAINTENANCE_KINDS

__all__ = [
    "ContextTier",
    "DocumentFormat",
    "FactKind",
    "JobErrorCode",
    "JobKind",
    "JobStatus",
    "MaintenanceJob",
    "MergeCandidateStatus",
    "RememberSection",
    "RetrievalSignal",
    "RetrievalStrategy",
    "WriteAction",
    "WriteMode",
    "to_api",
    "to_api_list",
    "to_pipeline",
]

E = TypeVar("E", bound=Enum)


def to_api(enum: type[E], value: str | None) -> E | None:
    """Pipeline string → enum member; None for null or a value this API version does not know
    (e.g. data written by an older release), so one odd row never fails a whole query."""
    if value is None:
        return None
    try:
        return enum(value)
    except ValueError:
        return None


def to_api_list(enum: type[E], values: Iterable[str]) -> list[E]:
    """Pipeline strings → members, sorted by name, unknown values left out."""
    found = {m for m in (to_api(enum, v) for v in values) if m is not None}
    return sorted(found, key=lambda m: m.name)


def to_pipeline(member: Enum | None) -> str | None:
    """Enum member (an argument or input field) → the pipeline's string, None stays None."""
    return None if member is None else str(member.value)


@strawberry.enum(description="A write decision recorded in the audit log.")
class WriteAction(Enum):
    ADD = strawberry.enum_value("ADD", description="A new fact was stored.")
    UPDATE = strawberry.enum_value(
        "UPDATE", description="A newer version superseded an existing fact."
    )
    NOOP = strawberry.enum_value("NOOP", description="The fact was already known (reinforced).")
    DELETE = strawberry.enum_value("DELETE", description="A fact was retracted by a message.")
    MERGE = strawberry.enum_value("MERGE", description="Two entities were merged (curation).")
    FORGET = strawberry.enum_value("FORGET", description="A fact was forgotten (curation).")
    ERASE = strawberry.enum_value(
        "ERASE",
        description="A fact, a subject or its messages were erased (hard delete); the "
        "record keeps ids and a hash, never the text.",
    )


@strawberry.enum(description="How much a write may change memory (deployment setting).")
class WriteMode(Enum):
    SHADOW = strawberry.enum_value(
        "shadow", description="Decide and audit everything, change nothing."
    )
    CONTROLLED = strawberry.enum_value(
        "controlled",
        description="Add and reinforce; updates and deletes are audited but not applied.",
    )
    FULL = strawberry.enum_value("full", description="Apply every decision.")


@strawberry.enum(description="What kind of statement a fact is.")
class FactKind(Enum):
    FACT = strawberry.enum_value("fact", description="A plain statement about the world.")
    PREFERENCE = strawberry.enum_value("preference", description="A like, dislike or wish.")
    DECISION = strawberry.enum_value("decision", description="Something decided or planned.")
    PROCEDURAL = strawberry.enum_value(
        "procedural", description="How to do something (steps, habits of work)."
    )
    SEMANTIC = strawberry.enum_value(
        "semantic", description="General knowledge, not tied to an event."
    )


@strawberry.enum(description="Where a background job is in its life.")
class JobStatus(Enum):
    PENDING = strawberry.enum_value("pending", description="Waiting for a worker (or a retry).")
    LEASED = strawberry.enum_value("leased", description="A worker is running it.")
    DONE = strawberry.enum_value("done", description="Finished successfully.")
    DEAD = strawberry.enum_value("dead", description="Failed on every attempt; see `lastError`.")


@strawberry.enum(description="State of a proposed duplicate entity pair.")
class MergeCandidateStatus(Enum):
    OPEN = strawberry.enum_value("open", description="Waiting for a decision.")
    MERGED = strawberry.enum_value("merged", description="Accepted: the pair was merged.")
    REJECTED = strawberry.enum_value("rejected", description="Rejected: they stay apart.")


@strawberry.enum(description="How the planner chose to answer a query.")
class RetrievalStrategy(Enum):
    MULTI_SIGNAL = strawberry.enum_value(
        "multi_signal", description="Semantic, keyword and graph signals, blended."
    )
    SKIP = strawberry.enum_value(
        "skip", description="Nothing to retrieve (empty query or a greeting)."
    )


@strawberry.enum(description="A signal that found a retrieved fact.")
class RetrievalSignal(Enum):
    SEMANTIC = strawberry.enum_value("semantic", description="Embedding similarity.")
    KEYWORD = strawberry.enum_value("keyword", description="Full-text match.")
    GRAPH = strawberry.enum_value("graph", description="Near an entity named in the query.")
    ACTIVATION = strawberry.enum_value(
        "activation", description="Spreading activation through the graph."
    )
    PATTERN = strawberry.enum_value("pattern", description="Behind a consolidated pattern.")


@strawberry.enum(description="How `retrieve` orders its candidates.")
class Ranker(Enum):
    LEARNED = strawberry.enum_value(
        "learned",
        description="A trained model over every candidate's features (the shipped one, or the "
        "tenant's own trained from its feedback); the default.",
    )
    FORMULA = strawberry.enum_value(
        "formula",
        description="The weighted formula: semantic, recency and importance plus keyword, "
        "graph, relation, time and activation boosts.",
    )


@strawberry.enum(description="Section of the context a fact was placed in.")
class ContextTier(Enum):
    HOT = strawberry.enum_value("hot", description="The best facts, listed first.")
    WARM = strawberry.enum_value("warm", description="Supporting facts, after the hot ones.")


@strawberry.enum(description="Format of a document given to `ingestDocument`.")
class DocumentFormat(Enum):
    TEXT = strawberry.enum_value("text", description="Plain text.")
    MARKDOWN = strawberry.enum_value("markdown", description="Markdown.")
    HTML = strawberry.enum_value("html", description="HTML (tags stripped).")


@strawberry.enum(description="Which input list of `remember` an item came from.")
class RememberSection(Enum):
    ENTITIES = strawberry.enum_value("entities", description="`entities`.")
    EVENTS = strawberry.enum_value("events", description="`events`.")
    FACTS = strawberry.enum_value("facts", description="`facts`.")
    RELATIONS = strawberry.enum_value("relations", description="`relations`.")


def _enum(name: str, description: str, members: Mapping[str, str]) -> Any:
    """A GraphQL enum from ``value → description``; each member's name is its value in capitals
    (the pipeline strings of job kinds and codes are single words or snake case)."""
    values = {v.upper(): strawberry.enum_value(v, description=d) for v, d in members.items()}
    return strawberry.enum(cast("type[Enum]", Enum(name, values)), description=description)


# What each code of ``graph.memory.jobs.context.JOB_ERROR_CODES`` tells a client.
_JOB_ERROR_MEANINGS = {
    "LLM_UNAVAILABLE": "The language model endpoint failed; retried.",
    "STORE_UNAVAILABLE": "Neo4j was unavailable; retried.",
    "TIMEOUT": "The attempt timed out.",
    "FETCH_REFUSED": "The document URL was refused or could not be fetched.",
    "PII_REJECTED": "The content holds data the PII policy rejects.",
    "QUOTA_EXCEEDED": "The API key's document quota is exhausted.",
    "BAD_PAYLOAD": "The job cannot run as queued (its subject is gone...).",
    "EXTRACTION_FAILED": "The model's answer was not usable; retried.",
    "LEASE_EXPIRED": "The worker running it died or stalled; retried.",
    "INTERNAL": "Another error; details are in the worker log only.",
}

if TYPE_CHECKING:
    JobKind = Enum
    MaintenanceJob = Enum
    JobErrorCode = Enum
else:
    JobKind = _enum("JobKind", "What a background job does.", JOB_KINDS)
    MaintenanceJob = _enum(
        "MaintenanceJob",
        "Maintenance jobs that can be started on demand (`runJob`).",
        {kind: JOB_KINDS[kind] for kind in MAINTENANCE_KINDS},
    )
    JobErrorCode = _enum(
        "JobErrorCode",
        "Why a job's last attempt failed (`lastErrorCode`).",
        {code: _JOB_ERROR_MEANINGS[code] for code in JOB_ERROR_CODES},
    )
