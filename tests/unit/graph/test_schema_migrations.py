"""Migrations are tracked by name: code that knows other migrations than the database's never
lowers the recorded version nor skips one of its own that shares a number with another."""

from __future__ import annotations

from typing import Any

import pytest
from neo4j.exceptions import ClientError, Neo4jError

from graph.schema import (
    BACKFILL_BATCH,
    BACKFILLS,
    MIGRATIONS,
    ONCE_BACKFILLS,
    SCHEMA_VERSION,
    ensure_schema,
)


class MetaOnly:
    """Just enough of an executor for ensure_schema: the meta node and online indexes."""

    def __init__(self, version: int, applied: list[str] | None) -> None:
        self.meta: dict[str, Any] = {"version": version, "dimensions": 384, "applied": applied}
        self.scripts: list[str] = []
        self.names: list[str] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        self.names.append(name)
        if name == "schema/get_version":
            return [dict(self.meta)]
        if name == "schema/index_states":
            return [{"name": "fact_embedding", "state": "ONLINE"}]
        if name == "schema/set_version":
            assert params is not None
            self.meta.update(version=params["version"], applied=params["applied"])
        return []

    async def run_text(self, statement: str, params: dict[str, Any] | None = None) -> list[Any]:
        self.scripts.append(statement)
        return []


async def test_a_new_database_gets_every_migration() -> None:
    ex = MetaOnly(0, None)
    state = await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert ex.scripts
    assert state.version == SCHEMA_VERSION and state.missing == ()


async def test_a_database_from_before_names_counts_its_version_as_applied() -> None:
    ex = MetaOnly(SCHEMA_VERSION, None)
    state = await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert ex.scripts == []
    assert not {batch for batch, _ in ONCE_BACKFILLS.values()} & set(ex.names)
    assert set(ex.meta["applied"]) == {name for _, name in MIGRATIONS}
    assert state.missing == ()


async def test_a_foreign_migration_with_our_number_does_not_hide_ours() -> None:
    ours = MIGRATIONS[-1][1]
    others = [name for _, name in MIGRATIONS[:-1]] + ["schema/v999_elsewhere"]
    ex = MetaOnly(999, others)
    state = await ensure_schema(ex, 384)  # type: ignore[arg-type]
    once = ONCE_BACKFILLS.get(ours, ("",))[0]
    assert ex.scripts or once in ex.names, f"{ours} was skipped"
    assert ex.meta["version"] == 999, "the recorded version was lowered"
    assert "schema/v999_elsewhere" in ex.meta["applied"] and ours in ex.meta["applied"]
    assert state.missing == ()


class Backfilling(MetaOnly):
    """Answers a backfill's probe with ``missing`` and its batches with the given update
    counts, one per batch."""

    def __init__(self, missing: int, counts: list[int]) -> None:
        super().__init__(SCHEMA_VERSION, [name for _, name in MIGRATIONS])
        self.missing = missing
        self.counts = counts
        self.batches: list[dict[str, Any]] = []

    async def run(
        self, name: str, params: dict[str, Any] | None = None, *, read: bool = False
    ) -> list[dict[str, Any]]:
        if name in {b.probe for b in BACKFILLS.values()}:
            return [{"missing": self.missing}]
        if name in {b.batch for b in BACKFILLS.values()}:
            self.batches.append(dict(params or {}))
            return [{"updated": self.counts.pop(0)}]
        return await super().run(name, params, read=read)


async def test_a_backfill_runs_in_batches_until_nothing_is_left() -> None:
    ex = Backfilling(20_007, [BACKFILL_BATCH, BACKFILL_BATCH, 7, 0] * len(BACKFILLS))
    await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert ex.batches == [{"batch": BACKFILL_BATCH}] * 4 * len(BACKFILLS) and ex.counts == []


async def test_a_backfill_costs_one_count_when_nothing_lacks_the_value() -> None:
    ex = Backfilling(0, [1])
    await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert ex.batches == []


async def test_a_once_backfill_runs_with_its_migration_only() -> None:
    """The type labels (schema version 13) are filled once, when the migration is applied."""
    ex = MetaOnly(12, [name for v, name in MIGRATIONS if v <= 12])
    await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert ex.names.count("schema/backfill_type_labels") == 1  # it answered no rows: done
    again = MetaOnly(SCHEMA_VERSION, [name for _, name in MIGRATIONS])
    await ensure_schema(again, 384)  # type: ignore[arg-type]
    assert "schema/backfill_type_labels" not in again.names


class RacedByAnother(MetaOnly):
    """A new database whose every first statement of a migration fails with ``code``, as when
    another process created the same rule between the IF NOT EXISTS check and the commit."""

    def __init__(self, code: str) -> None:
        super().__init__(0, None)
        self.code = code

    async def run_text(self, statement: str, params: dict[str, Any] | None = None) -> list[Any]:
        if statement.lstrip().upper().startswith("CREATE") and statement not in self.scripts:
            self.scripts.append(statement)
            raise Neo4jError._hydrate_neo4j(code=self.code, message="already exists")
        return await super().run_text(statement, params)


@pytest.mark.parametrize(
    "code",
    [
        "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists",
        "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
    ],
)
async def test_a_rule_another_process_created_meanwhile_counts_as_created(code: str) -> None:
    ex = RacedByAnother(code)
    state = await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert len(ex.scripts) > len(MIGRATIONS)  # every statement was tried, none stopped the rest
    assert state.missing == ()


async def test_any_other_schema_error_stops_the_migration() -> None:
    ex = RacedByAnother("Neo.ClientError.Statement.SyntaxError")
    with pytest.raises(ClientError, match="already exists"):
        await ensure_schema(ex, 384)  # type: ignore[arg-type]
    assert len(ex.scripts) == 1
