"""Failure drills with small counts: every drill must end with 0 lost and 0
duplicated messages. The drills themselves live in ``tests/bench/drills.py`` (``python -m
tests.bench.drills`` runs them larger and prints the table); they run against a throw-away
Neo4j on bolt 31687 (never the tests' shared server; the outage test and the first-minutes walk
use it too), API/worker processes and a fake LLM endpoint started here, all on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from graph.executor import Executor
from graph.runtime import LocalNeo4j
from tests.bench import drills
from tests.fake_llm_server import FakeLLMServer

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def neo(throwaway_neo4j: LocalNeo4j) -> LocalNeo4j:
    return throwaway_neo4j  # shared with outage and first minutes (tests/e2e/conftest.py)


@pytest.fixture(scope="class")
def served(neo: LocalNeo4j) -> Iterator[tuple[FakeLLMServer, drills.Api]]:
    """One API process (and fake LLM) shared by the class's drills, the last of which kills it
    (class scope: its worker must be gone before drills whose jobs it would take)."""
    with drills.served_api() as pair:
        yield pair


@pytest.fixture
async def ex(neo: LocalNeo4j) -> AsyncIterator[Executor]:
    async with drills.drill_executor() as executor:
        yield executor


def _check(result: drills.DrillResult) -> None:
    print("\n" + drills.table([result]))
    assert result.ok, drills.table([result])


async def test_llm_down_jobs_are_retried_then_visibly_failed_and_events_kept(
    ex: Executor,
) -> None:
    _check(await drills.drill_llm_down(ex, messages=1))


class TestWithOneApi:
    """Drills that share one API process; the last one kills it."""

    async def test_neo4j_sigkill_mid_write_recovers_without_partial_or_lost_messages(
        self,
        ex: Executor,
        neo: LocalNeo4j,
        served: tuple[FakeLLMServer, drills.Api],
    ) -> None:
        _check(await drills.drill_neo4j_sigkill(ex, neo, messages=2, served=served))

    async def test_fifty_identical_concurrent_writes_leave_one_fact_and_one_entity(
        self,
        ex: Executor,
        served: tuple[FakeLLMServer, drills.Api],
    ) -> None:
        _check(await drills.drill_concurrent_identical(ex, writers=50, served=served))

    async def test_api_sigkill_during_a_keyed_write_then_retry_gives_one_set_of_facts(
        self,
        ex: Executor,
        served: tuple[FakeLLMServer, drills.Api],
    ) -> None:
        # Last of the class: it kills the shared API (its restarts are its own).
        _check(await drills.drill_api_sigkill(ex, rounds=1, served=served))


async def test_a_job_that_outlives_its_lease_is_committed_once(ex: Executor) -> None:
    _check(await drills.drill_lease_outlived(ex))


async def test_a_flooding_tenant_does_not_starve_another(ex: Executor) -> None:
    _check(await drills.drill_tenant_flood(ex, flood=100, workers=4))
