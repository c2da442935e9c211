"""Property-based fuzzing of the live /graphql with schemathesis (GraphQL support): for a
bounded number of generated operations per root field, no 5xx and no leaked stack traces or
Cypher text. Generated agentIds are arbitrary strings, so most calls exercise validation and
empty agents; the admin key lets them reach the resolvers. Writes go to random agent ids,
which the test removes afterwards."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from graph.agent_deletion import delete_agent
from graph.executor import connected
from server.settings import Settings
from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

EXAMPLES_PER_FIELD = 15
LEAKS = re.compile(r"Traceback|File \"|Neo\.ClientError|neo4j\.exceptions|MATCH \(|cypher/", re.I)
AGENT_ARG = re.compile(r'agentId:\s*"((?:[^"\\]|\\.)*)"')


def _forget_agents(agents: set[str]) -> None:
    s = Settings()

    async def main() -> None:
        async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret()) as ex:
            for agent in agents - {"demo"}:
                await delete_agent(ex, agent)

    asyncio.run(main())


def test_no_server_errors_or_leaks(live_api: LiveApi, demo_agent: str) -> None:
    schema = schemathesis.graphql.from_url(f"{live_api.url}/graphql", headers=live_api.headers)
    statuses: Counter[int] = Counter()
    agents: set[str] = set()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    try:
        for operation in operations:
            label = operation.label

            @given(case=operation.as_strategy())
            @settings(
                max_examples=EXAMPLES_PER_FIELD,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case: Any) -> None:
                body = case.body if isinstance(case.body, dict) else {}
                agents.update(AGENT_ARG.findall(str(body.get("query", ""))))
                response = case.call(headers=live_api.headers, timeout=120)
                statuses[response.status_code] += 1
                assert response.status_code < 500, (label, response.text[:500])  # noqa: B023
                assert not LEAKS.search(response.text), (label, response.text[:2000])  # noqa: B023

            check()
    finally:
        _forget_agents(agents)
    print(
        f"schemathesis: {sum(statuses.values())} requests over {len(operations)} root fields, "
        f"statuses {dict(statuses)}"
    )
