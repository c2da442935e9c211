"""Idempotent, versioned schema creation: ``await ensure_schema(executor, dimensions)``.

Each migration is a ``cypher/schema/vNNN_*.cypher`` script. The names of the applied migrations
(and the highest version) are stored on a ``(:HippographMeta {key: 'schema'})`` node; a migration
runs when its name is not there yet, so code that knows fewer or other migrations (an older
release, a branch sharing a dev database) neither lowers the recorded version nor hides a
migration that shares a number with one applied elsewhere. Re-running is a no-op (every statement
uses ``IF NOT EXISTS``), so it is safe on every start. A migration that derives a property from
stored data has a backfill (``BACKFILLS``): on every start, when a cheap count says rows lack the
value (after the migration's script, or rows an older process wrote since), it runs in batches;
one that no cheap count can probe (``ONCE_BACKFILLS``) runs once, when its migration is applied.
On a server with in-index filtered vector search (Neo4j 2026.01+) the fact, entity and event
vector indexes store ``agent_id`` too, and a plain one left by an older server is rebuilt once
(``graph/vector_search.py``). Vector indexes take the embedder's dimension; a database built for
another dimension is refused (a re-embed job is the way to change models).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from neo4j.exceptions import ClientError

import cypher
from graph.errors import GraphError
from graph.executor import Executor
from graph.memory.ontology.builtin import BUILTIN
from graph.memory.ontology.labels import type_labels
from graph.vector_search import FILTERABLE, detect

__all__ = [
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "VECTOR_INDEXES",
    "SchemaState",
    "ensure_schema",
    "schema_state",
]

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (1, "schema/v001_constraints"),
    (2, "schema/v002_jobs"),
    (3, "schema/v003_tenancy"),
    (4, "schema/v004_scheduler"),
    (5, "schema/v005_read_indexes"),
    (6, "schema/v006_embedding_spaces"),
    (7, "schema/v007_agent_fulltext"),
    (8, "schema/v008_entity_agent"),
    (9, "schema/v009_agent_stats"),
    (10, "schema/v010_alias_prefix"),
    (11, "schema/v011_keyword_terms"),
    (12, "schema/v012_ontology"),
    (13, "schema/v013_entity_type_labels"),
    (14, "schema/v014_fact_gloss"),
    (15, "schema/v015_rank_learning"),
    (16, "schema/v016_webhooks"),
)


@dataclass(frozen=True)
class Backfill:
    """Data a migration derives from what is stored. ``probe`` counts the rows lacking it
    (``missing``; from the count store and an index, not a scan); ``batch`` fills up to
    ``$batch`` of them a transaction (``updated``) and is run until it updates none. Checked at
    every start, so rows an older process wrote after the migration (a rolling upgrade) are
    filled by the next start."""

    probe: str
    batch: str


BACKFILLS: dict[str, Backfill] = {
    "schema/v010_alias_prefix": Backfill(
        "schema/alias_keys_missing", "schema/backfill_alias_agent_norm"
    ),
    "schema/v011_keyword_terms": Backfill("schema/terms_missing", "schema/backfill_terms"),
}
# Data a migration derives once, when it is applied (no cheap count could tell at every start
# whether rows lack it): (batch statement, its parameters), run until it updates none.
ONCE_BACKFILLS: dict[str, tuple[str, dict[str, Any]]] = {
    "schema/v013_entity_type_labels": (
        "schema/backfill_type_labels",
        {"labels": type_labels(BUILTIN)},
    ),
}
BACKFILL_BATCH = 10_000
SCHEMA_VERSION = MIGRATIONS[-1][0]
VECTOR_INDEXES = ("fact", "event", "entity", "chunk", "observation", "fact_gloss")


class DimensionMismatch(GraphError):
    """The database's vector indexes were built for another embedding dimension."""


@dataclass(frozen=True)
class SchemaState:
    version: int
    dimensions: int | None
    indexes: dict[str, str]
    applied: frozenset[str] = frozenset()

    @property
    def missing(self) -> tuple[str, ...]:
        """This code's migrations that the database has not applied."""
        return tuple(name for _, name in MIGRATIONS if name not in self.applied)

    @property
    def all_online(self) -> bool:
        return bool(self.indexes) and all(s == "ONLINE" for s in self.indexes.values())


async def schema_state(ex: Executor) -> SchemaState:
    meta = (await ex.run("schema/get_version", read=True))[0]
    rows = await ex.run("schema/index_states", read=True)
    version = int(meta["version"])
    return SchemaState(
        version=version,
        dimensions=meta["dimensions"],
        indexes={r["name"]: r["state"] for r in rows},
        applied=applied_migrations(version, meta["applied"]),
    )


def applied_migrations(version: int, recorded: list[str] | None) -> frozenset[str]:
    """The applied migration names; databases from before names were recorded count every
    migration up to their version as applied."""
    if recorded is not None:
        return frozenset(recorded)
    return frozenset(name for v, name in MIGRATIONS if v <= version)


async def _backfill(ex: Executor, backfill: Backfill) -> None:
    probe = await ex.run(backfill.probe, read=True)
    if not probe or not probe[0]["missing"]:
        return
    await _fill(ex, backfill.batch, {})


async def _fill(ex: Executor, batch: str, params: dict[str, Any]) -> None:
    while True:
        rows = await ex.run(batch, {**params, "batch": BACKFILL_BATCH})
        if not rows or not rows[0]["updated"]:
            return


# Processes that start together on a new database (API processes, workers) apply the same
# migrations at once: another one can create an index or constraint between a statement's
# IF NOT EXISTS check and its commit. The rule is then there, as the statement wanted (what
# IF NOT EXISTS does for a rule of that name or schema found before).
CREATED_MEANWHILE = frozenset(
    {
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
        "Neo.ClientError.Schema.IndexAlreadyExists",
        "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
        "Neo.ClientError.Schema.ConstraintAlreadyExists",
        "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
    }
)


async def _create(statement: Awaitable[object]) -> None:
    """Run a schema statement; one that another process made true meanwhile is done."""
    try:
        await statement
    except ClientError as exc:
        if exc.code not in CREATED_MEANWHILE:
            raise


async def ensure_schema(ex: Executor, dimensions: int, *, timeout_s: float = 120.0) -> SchemaState:
    """Apply pending migrations and vector indexes, then wait until every index is ONLINE."""
    state = await schema_state(ex)
    if state.dimensions is not None and state.dimensions != dimensions:
        raise DimensionMismatch(
            f"vector indexes use {state.dimensions} dimensions, the embedder gives {dimensions}; "
            "use the matching embedder, or start a new database for the new model (vector "
            "indexes have one dimension per database; `hippograph reembed` switches models of "
            "the same dimension)"
        )
    for name in state.missing:
        for statement in cypher.load_script(name):
            await _create(ex.run_text(statement))
        if name in ONCE_BACKFILLS:
            await _fill(ex, *ONCE_BACKFILLS[name])
    for backfill in BACKFILLS.values():
        await _backfill(ex, backfill)
    form = await detect(ex)
    for label in form.rebuild():  # built by a server without filtered search: rebuild once
        await ex.run(f"schema/drop_{label}_vector_index")
    for label in VECTOR_INDEXES:
        name = f"{label}_filtered" if label in FILTERABLE and form.server_filtered else label
        await _create(ex.run(f"schema/vector_{name}", {"dimensions": dimensions}))
    await ex.run(
        "schema/set_version",
        {
            "version": max(state.version, SCHEMA_VERSION),
            "applied": sorted(state.applied | {name for _, name in MIGRATIONS}),
            "dimensions": dimensions,
        },
    )
    deadline = time.monotonic() + timeout_s
    while True:
        state = await schema_state(ex)
        if state.all_online:
            return state
        failed = [n for n, s in state.indexes.items() if s == "FAILED"]
        if failed:
            raise GraphError(f"indexes failed to build: {failed}")
        if time.monotonic() > deadline:
            pending = {n: s for n, s in state.indexes.items() if s != "ONLINE"}
            raise GraphError(f"indexes not ONLINE after {timeout_s}s: {pending}")
        await asyncio.sleep(0.2)
