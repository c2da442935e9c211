"""The Python client package (gql/clients/python) against a live API: typed results, typed
errors, idempotent writes, page iterators, both flavours."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
from hippograph_client import (
    AsyncHippographClient,
    BadInput,
    Forbidden,
    HippographClient,
    NotFound,
    aiter_facts,
    iter_entities,
    iter_facts,
)
from hippograph_client.sync.input_types import FactInput

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e


def test_sync_client_reads_writes_and_pages(live_api: LiveApi, demo_agent: str) -> None:
    with HippographClient(f"{live_api.url}/graphql", api_key=live_api.admin_key) as memory:
        assert memory.viewer().admin is True
        card = memory.entity(demo_agent, "person:guilherme_maturana")
        assert card is not None and card.name == "Guilherme Maturana"
        assert any(r.type_ == "lives_in" and r.active for r in card.relationships)

        found = memory.retrieve(demo_agent, "Where does Guilherme live?", options={"topkFacts": 3})
        assert found.context and 0 < len(found.facts) <= 3
        assert all(isinstance(f.score, float) for f in found.facts)

        total = sum(1 for _ in iter_facts(memory, demo_agent, page_size=100))
        paged = [fact.id for fact in iter_facts(memory, demo_agent, page_size=3)]
        assert len(paged) == total > 6 and len(set(paged)) == total  # several pages, no repeats
        people = [e.key for e in iter_entities(memory, demo_agent, page_size=2, type_="person")]
        assert "person:guilherme_maturana" in people and len(people) == len(set(people))


def test_idempotent_write_answers_the_first_result(live_api: LiveApi) -> None:
    agent = f"pyclient-{uuid.uuid4().hex[:8]}"
    key = uuid.uuid4().hex
    with HippographClient(f"{live_api.url}/graphql", api_key=live_api.admin_key) as memory:
        said = dict(speaker_name="Ana", occurred_at=datetime(2026, 3, 1, tzinfo=UTC))
        first = memory.write(agent, "I moved to Porto last month.", **said, idempotency_key=key)
        again = memory.write(agent, "I moved to Porto last month.", **said, idempotency_key=key)
        assert first.outcome is not None and first.outcome.facts_added
        assert again.outcome is not None and again.outcome.event_id == first.outcome.event_id
        assert [f.id for f in again.outcome.facts_added] == [
            f.id for f in first.outcome.facts_added
        ]
        assert first.outcome.facts_added[0].id in {
            e.node.id for e in memory.facts(agent, first=20).edges
        }
        told = memory.remember(
            agent, facts=[FactInput(text="Ana speaks Portuguese.", subject="Ana")]
        )
        assert told.summary is not None and told.summary.facts_added == 1
        memory.erase_agent(agent, confirm_agent_id=agent)


def test_errors_are_typed(live_api: LiveApi, demo_agent: str) -> None:
    url = f"{live_api.url}/graphql"
    with HippographClient(url, api_key=live_api.admin_key) as memory:
        with pytest.raises(NotFound) as missing:
            memory.fact_history(demo_agent, "no-such-fact")
        assert missing.value.code == "NOT_FOUND"
        with pytest.raises(BadInput) as bad:
            memory.write(demo_agent, "Hi", "Ana", dry_run=True, config_overrides={"no_such": 1})
        assert bad.value.code == "BAD_INPUT" and bad.value.data is not None
    with HippographClient(url, api_key="hg_wrong_key") as stranger, pytest.raises(Forbidden) as no:
        stranger.viewer()
    assert no.value.status_code == 401


async def test_async_client_pages_the_same_facts(live_api: LiveApi, demo_agent: str) -> None:
    async with AsyncHippographClient(f"{live_api.url}/graphql", api_key=live_api.admin_key) as c:
        ids = [fact.id async for fact in aiter_facts(c, demo_agent, page_size=4)]
        whole = await c.facts(demo_agent, first=100)
        assert ids == [edge.node.id for edge in whole.edges]
        assert (await c.health()).ready
