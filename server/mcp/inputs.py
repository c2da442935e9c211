"""Typed inputs of the MCP tools: the SDK publishes their fields (types, defaults, constraints
and descriptions) as each tool's JSON input schema, and validates calls against them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from graph.memory import browse
from graph.memory.remember.rows import API_MAX_ITEMS

__all__ = [
    "EntityIn",
    "FactIn",
    "ForgetFact",
    "IngestDocument",
    "Input",
    "ListFacts",
    "LookupEntity",
    "RelationIn",
    "RememberFacts",
    "RetrieveContext",
    "WriteMessage",
]


AGENT_ID = Field(
    default=None,
    description="The agent (memory owner). May be omitted when the API key covers one agent.",
)


class Input(BaseModel):
    """Fields every tool takes; the class docstring of a subclass is its tool's description."""

    model_config = ConfigDict(extra="forbid")
    agent_id: str | None = AGENT_ID


class WriteMessage(Input):
    """Store one conversation message: facts are extracted, reconciled and versioned."""

    message: str = Field(description="The message text, as said.")
    speaker_name: str = Field(description="Who said it, e.g. the user's name.")
    recent_messages: list[str] | None = Field(
        default=None, description="Earlier messages ('Speaker: text'), oldest first, for context."
    )
    occurred_at: datetime | None = Field(
        default=None, description="When it was said (ISO 8601; default now)."
    )
    thread_id: str | None = Field(default=None, description="Conversation thread id.")
    dry_run: bool = Field(default=False, description="Decide everything, persist nothing.")
    idempotency_key: str | None = Field(
        default=None, description="Sending the same key again returns the first result."
    )
    background: bool = Field(
        default=False,
        description="Store the message now and extract its facts in a background job "
        "(returns the event and job ids; not with dry_run).",
    )

    @model_validator(mode="after")
    def _not_both(self) -> WriteMessage:
        if self.background and self.dry_run:
            raise ValueError("dry_run cannot be combined with background")
        return self


class EntityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="Display name.")
    type: str = Field(default="thing", description="Lowercase type: person, city, project...")
    aliases: list[str] = Field(default_factory=list, description="Other names.")
    key: str | None = Field(default=None, description="Key; default `type:slug(name)`.")
    importance: float = Field(default=0.5, ge=0, le=1, description="Importance, 0..1.")


class FactIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(description="The fact as one sentence.")
    subject: str = Field(description="The entity it is about (name, alias or key).")
    entities: list[str] = Field(default_factory=list, description="Other entities it mentions.")
    kind: str = Field(default="fact", description="Fact kind (fact, preference, plan...).")
    confidence: float = Field(default=0.9, ge=0, le=1, description="Confidence, 0..1.")
    importance: float = Field(default=0.5, ge=0, le=1, description="Importance, 0..1.")
    valid_from: datetime | None = Field(default=None, description="When it became true.")
    valid_to: datetime | None = Field(default=None, description="When it stopped being true.")
    categories: list[str] = Field(default_factory=list, description="Topics.")


class RelationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: str = Field(description="Source entity (name, alias or key).")
    target: str = Field(description="Target entity (name, alias or key).")
    type: str = Field(description="Relationship type, e.g. works_at (normalised to snake_case).")
    strength: float = Field(default=0.8, ge=0, le=1, description="Strength, 0..1.")
    valid_from: datetime | None = Field(default=None, description="When it began.")


class RememberFacts(Input):
    """Store entities, facts and relationships exactly as given (no extraction, no LLM)."""

    # The same cap as the GraphQL remember mutation: a bigger call is refused before any work.
    entities: list[EntityIn] = Field(
        default_factory=list, max_length=API_MAX_ITEMS, description="Entities to upsert."
    )
    facts: list[FactIn] = Field(
        default_factory=list,
        max_length=API_MAX_ITEMS,
        description="Facts to store; known facts are not duplicated.",
    )
    relations: list[RelationIn] = Field(
        default_factory=list,
        max_length=API_MAX_ITEMS,
        description="Relationships to create or confirm.",
    )


class RetrieveContext(Input):
    """Memory context for what the agent is about to answer: ranked facts, snippets, patterns."""

    query: str = Field(description="The question or topic, in natural language.")
    as_of: datetime | None = Field(
        default=None, description="Time travel: retrieve memory as it stood at this instant."
    )
    max_facts: int | None = Field(default=None, description="Facts to return (1..500).")
    max_events: int | None = Field(
        default=None, description="Conversation snippets to return (0..200)."
    )


class LookupEntity(Input):
    """One entity with its facts, relationships, aliases and timeline."""

    key: str | None = Field(default=None, description="Entity key, e.g. person:clara_rezende.")
    name: str | None = Field(default=None, description="Or a name or alias to search for.")
    as_of: datetime | None = Field(
        default=None, description="Time travel: facts and relationships valid at this instant."
    )
    include_invalidated: bool = Field(
        default=False, description="Also return ended and invalidated facts and relationships."
    )
    max_facts: int = Field(default=30, ge=1, le=100, description="At most this many facts.")
    max_history: int = Field(
        default=20, ge=0, le=500, description="Timeline entries, newest first (0: none)."
    )

    @model_validator(mode="after")
    def _key_or_name(self) -> LookupEntity:
        if not (self.key or "").strip() and not (self.name or "").strip():
            raise ValueError("give `key` or `name`")
        return self


class ListFacts(Input):
    """Facts, newest first, as of an instant, optionally about one entity (paged)."""

    as_of: datetime | None = Field(
        default=None, description="Time travel: facts valid and known at this instant."
    )
    entity_key: str | None = Field(default=None, description="Only facts about this entity.")
    kind: str | None = Field(default=None, description="Only this fact kind.")
    include_invalidated: bool = Field(
        default=False, description="Also return ended and invalidated facts."
    )
    first: int = Field(default=20, description=f"Page size (1..{browse.MAX_PAGE}).")
    after: str | None = Field(default=None, description="`next_cursor` of the previous page.")


class ForgetFact(Input):
    """Invalidate one fact (soft delete, audited) and the relationships it evidences."""

    fact_id: str = Field(description="Id of the fact to forget.")
    reason: str | None = Field(default=None, description="Why (kept in the audit log).")


class RateFact(Input):
    """Say whether a fact retrieve_context returned helped: the verdict trains the ranking of
    this tenant's memory (`hippograph rank train`)."""

    retrieve_id: str = Field(description="The retrieve_id retrieve_context returned.")
    fact_id: str = Field(description="Id of the fact (one of that retrieve's facts).")
    helpful: bool = Field(description="True: it helped; false: it did not belong there.")
    query: str | None = Field(
        default=None,
        description="The retrieve's question; needed only when the server no longer holds "
        "that retrieve (it is then run again as memory stood at its time).",
    )


class EraseFact(Input):
    """Erase one fact for good (admin or operator only): the fact and its older versions, the
    messages it came from and every copy of its text. Unlike forget_fact it cannot be undone and
    time travel no longer shows it."""

    fact_id: str = Field(description="Id of the fact to erase.")


class EraseEntity(Input):
    """Erase a subject for good (admin or operator only): the entity, its aliases and
    relationships, every fact about it and every message or document naming it."""

    key: str = Field(description="The entity key, e.g. `person:clara_rezende`.")


class IngestDocument(Input):
    """Register a document (text or a public URL); a background job chunks and indexes it."""

    text: str | None = Field(default=None, description="The document text (or give `url`).")
    url: str | None = Field(default=None, description="A public http(s) URL to fetch.")
    title: str | None = Field(default=None, description="Title (default: the first line).")
    format: Literal["text", "markdown", "html"] | None = Field(
        default=None, description="Format (default: detected)."
    )
