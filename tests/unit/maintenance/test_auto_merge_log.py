"""A failed automatic merge is logged without the entity keys (they name people, and an erased
subject's key must not survive in log files)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.maintenance.duplicates import PairScore, _auto_merge


class _Refusing:
    """An executor whose every statement fails with an error quoting an entity key."""

    async def run(self, name: str, params: dict[str, Any], **_: Any) -> list[dict[str, Any]]:
        raise BadInput("entity 'person:clara_rezende' was already merged into 'person:clara'")


def test_a_failed_auto_merge_logs_the_candidate_not_the_keys(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    pair = PairScore("person:clara", "person:clara_rezende", 0.99, "same name", id="cand-1")
    merged = asyncio.run(_auto_merge(cast(Executor, _Refusing()), "agent", pair))
    assert merged is False
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "cand-1" in logged and "clara" not in logged
