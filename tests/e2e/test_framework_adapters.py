"""The framework adapters against a live API: LangGraph's store on versioned facts (sync and
async, and the example graph run end to end offline) and LangChain's retriever."""

from __future__ import annotations

import importlib.util
import uuid
from pathlib import Path

import pytest
from hippograph_client import AsyncHippographClient, HippographClient
from hippograph_client.langchain import HippographRetriever
from hippograph_client.langgraph import HippographStore, text_of, value_of

from tests.e2e.conftest import LiveApi

pytestmark = pytest.mark.e2e

EXAMPLE = Path(__file__).resolve().parents[2] / "gql/clients/python/examples/langgraph_memory.py"


def test_values_round_trip_through_fact_text() -> None:
    for value in ({"text": "Ana likes tea"}, {"kind": "pref", "drink": "tea", "n": 2}):
        assert value_of(text_of(value)) == value
    assert text_of({"text": "plain"}) == "plain"


def test_put_get_overwrite_delete_search_and_namespaces(live_api: LiveApi) -> None:
    user = f"lg-{uuid.uuid4().hex[:8]}"
    ns = ("memories", user)
    with HippographClient(f"{live_api.url}/graphql", api_key=live_api.admin_key) as client:
        store = HippographStore(client=client)
        store.put(ns, "drink", {"text": "Ana drinks green tea every morning"})
        store.put(ns, "city", {"kind": "home", "city": "Curitiba"})
        assert store.get(ns, "city").value == {"kind": "home", "city": "Curitiba"}

        store.put(ns, "city", {"kind": "home", "city": "Porto"})  # overwrite: history stays
        assert store.get(ns, "city").value == {"kind": "home", "city": "Porto"}
        kept = client.facts(
            f"memories/{user}", entity_key="item:city", include_invalidated=True, first=20
        )
        texts = {(e.node.text, e.node.active) for e in kept.edges}
        assert texts == {
            ('{"city": "Curitiba", "kind": "home"}', False),
            ('{"city": "Porto", "kind": "home"}', True),
        }

        found = store.search(ns, query="What does Ana drink?", limit=2)
        assert found and found[0].key == "drink" and isinstance(found[0].score, float)
        homes = store.search(ns, filter={"kind": "home"})
        assert [item.key for item in homes] == ["city"]
        assert ns in store.list_namespaces(prefix=("memories",))

        store.delete(ns, "drink")
        assert store.get(ns, "drink") is None and store.get(ns, "never-put") is None
        client.erase_agent(f"memories/{user}", confirm_agent_id=f"memories/{user}")


async def test_the_async_api_reads_what_it_wrote(live_api: LiveApi) -> None:
    ns = ("memories", f"lg-{uuid.uuid4().hex[:8]}")
    url = f"{live_api.url}/graphql"
    async with AsyncHippographClient(url, api_key=live_api.admin_key) as aclient:
        store = HippographStore(aclient=aclient)
        await store.aput(ns, "pet", {"text": "Ana has a beagle called Pipoca"})
        item = await store.aget(ns, "pet")
        assert item is not None and item.value == {"text": "Ana has a beagle called Pipoca"}
        hits = await store.asearch(ns, query="Which dog does Ana have?")
        assert [h.key for h in hits] == ["pet"]
        await aclient.erase_agent("/".join(ns), confirm_agent_id="/".join(ns))


def test_the_example_graph_recalls_what_it_stored(live_api: LiveApi) -> None:
    spec = importlib.util.spec_from_file_location("langgraph_memory", EXAMPLE)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    recalled = example.main(f"{live_api.url}/graphql", live_api.admin_key)
    assert recalled == ["I live in Curitiba and I work at Acme."]


async def test_the_langchain_retriever_returns_ranked_facts_as_documents(
    live_api: LiveApi, demo_agent: str
) -> None:
    url = f"{live_api.url}/graphql"
    with HippographClient(url, api_key=live_api.admin_key) as client:
        retriever = HippographRetriever(client=client, agent_id=demo_agent, k=3)
        docs = retriever.invoke("Where does Guilherme live?")
        assert 0 < len(docs) <= 3 and all(d.metadata["id"] == d.id for d in docs)
        scores = [d.metadata["score"] for d in docs]
        assert scores == sorted(scores, reverse=True)
        facts = {e.node.id: e.node.text for e in client.facts(demo_agent, first=100).edges}
        assert all(facts[d.id] == d.page_content for d in docs)
    async with AsyncHippographClient(url, api_key=live_api.admin_key) as aclient:
        again = await HippographRetriever(aclient=aclient, agent_id=demo_agent, k=3).ainvoke(
            "Where does Guilherme live?"
        )
        assert [d.id for d in again] == [d.id for d in docs]
