"""The framework adapters against a live API: LangGraph's store on versioned facts (sync and
async, and the example graph run end to end offline) and LangChain's retriever."""

from __future__ import annotations

import importlib.util
import json
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from hippograph_client import AsyncHippographClient, HippographClient
from hippograph_client.langchain import HippographRetriever
from hippograph_client.langgraph import HippographStore, text_of, value_of
from hippograph_client.llamaindex import HippographMemoryBlock
from hippograph_client.llamaindex import HippographRetriever as LlamaRetriever
from hippograph_client.openai_agents import HippographSession, item_text
from llama_index.core.llms import ChatMessage

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
        await store.aput(ns, "home", {"kind": "home", "city": "Porto"})
        homes = await store.asearch(ns, filter={"kind": "home"})  # no query: the items listed
        assert [(h.key, h.value["city"]) for h in homes] == [("home", "Porto")]
        assert ns in await store.alist_namespaces(prefix=("memories",))
        await store.adelete(ns, "pet")
        assert await store.aget(ns, "pet") is None and await store.aget(ns, "never") is None
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


def load_example(name: str) -> Any:
    path = EXAMPLE.with_name(name)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    return example


async def test_the_llamaindex_memory_writes_flushed_turns_and_answers_with_context(
    live_api: LiveApi,
) -> None:
    example = load_example("llamaindex_memory.py")
    out = await example.main(f"{live_api.url}/graphql", live_api.admin_key)
    # the first turn flushed into the block: the user's message written (the reply is context)
    assert out["written"] == [example.CONVERSATION[0][1]]
    memory, *recent = out["prompt"]
    assert memory.startswith("system: <memory>") and "Curitiba" in memory
    assert recent == [f"{role}: {text}" for role, text in example.CONVERSATION[2:]]
    texts, scores = zip(*out["facts"], strict=True)
    assert "Curitiba" in texts[0] and list(scores) == sorted(scores, reverse=True)


async def test_the_llamaindex_retriever_returns_ranked_facts_as_nodes(
    live_api: LiveApi, demo_agent: str
) -> None:
    url = f"{live_api.url}/graphql"
    with HippographClient(url, api_key=live_api.admin_key) as client:
        nodes = LlamaRetriever(agent_id=demo_agent, client=client, k=3).retrieve(
            "Where does Guilherme live?"
        )
        assert 0 < len(nodes) <= 3 and all(n.node.metadata["id"] == n.node.id_ for n in nodes)
        scores = [n.score for n in nodes]
        assert scores == sorted(scores, reverse=True)
        facts = {e.node.id: e.node.text for e in client.facts(demo_agent, first=100).edges}
        assert all(facts[n.node.id_] == n.node.get_content() for n in nodes)
    async with AsyncHippographClient(url, api_key=live_api.admin_key) as aclient:
        again = await LlamaRetriever(agent_id=demo_agent, aclient=aclient, k=3).aretrieve(
            "Where does Guilherme live?"
        )
        assert [n.node.id_ for n in again] == [n.node.id_ for n in nodes]
    with pytest.raises(RuntimeError, match="aclient"):
        await LlamaRetriever(agent_id=demo_agent).aretrieve("Where does Guilherme live?")


async def test_the_memory_block_reads_nothing_without_a_user_message_and_writes_only_users(
    live_api: LiveApi,
) -> None:
    agent = f"li-{uuid.uuid4().hex[:8]}"
    url = f"{live_api.url}/graphql"
    async with AsyncHippographClient(url, api_key=live_api.admin_key) as aclient:
        block = HippographMemoryBlock(client=aclient, agent_id=agent, user_name="Ana")
        assert await block.aget([ChatMessage(role="system", content="Be brief.")]) == ""
        await block.aput(
            [
                ChatMessage(role="system", content="Be brief."),
                ChatMessage(role="user", content="I adopted a beagle called Pipoca."),
                ChatMessage(role="assistant", content="Pipoca is a lovely name."),
                ChatMessage(role="tool", content="{}"),
                ChatMessage(role="user", content="   "),
            ],
            session_id="s-1",
        )
        events = (await aclient.events(agent, first=20)).edges
        assert [(e.node.speaker, e.node.thread_id, e.node.text) for e in events] == [
            ("Ana", "s-1", "I adopted a beagle called Pipoca.")
        ]
        context = await block.aget([ChatMessage(role="user", content="What is my dog called?")])
        assert "Pipoca" in context
        await aclient.erase_agent(agent, confirm_agent_id=agent)


@dataclass
class ScriptedAgentModel:
    """Chat-completion answers for the Agents SDK: each reply is text, a tool call
    ``(name, arguments)``, or a callable of the request body returning one of those."""

    replies: list[Any]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.requests.append(body)
        reply = self.replies.pop(0)
        reply = reply(body) if callable(reply) else reply
        message: dict[str, Any] = {"role": "assistant", "content": reply}
        if isinstance(reply, tuple):
            call = {"name": reply[0], "arguments": json.dumps(reply[1])}
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": f"call_{len(self.requests)}", "type": "function", "function": call}
                ],
            }
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        choice = {
            "index": 0,
            "finish_reason": "tool_calls" if isinstance(reply, tuple) else "stop",
            "message": message,
        }
        return httpx.Response(
            200,
            json={
                "id": "c",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [choice],
                "usage": usage,
            },
        )

    def client(self) -> openai.AsyncOpenAI:
        http = httpx.AsyncClient(transport=httpx.MockTransport(self.handler))
        return openai.AsyncOpenAI(
            api_key="test", base_url="http://llm.test/v1", max_retries=0, http_client=http
        )


def answer_from_tool_output(body: dict[str, Any]) -> str:
    said = [m["content"] for m in body["messages"] if m["role"] == "tool"]
    return "You live in Porto." if said and "Porto" in said[-1] else "I do not know."


async def test_the_agents_example_answers_a_new_conversation_from_memory(
    live_api: LiveApi,
) -> None:
    model = ScriptedAgentModel(
        ["Noted.", ("recall_memory", {"question": "Where does Ana live?"}), answer_from_tool_output]
    )
    example = load_example("openai_agents_memory.py")
    out = await example.main(
        f"{live_api.url}/graphql", live_api.admin_key, openai_client=model.client()
    )
    assert out["answer"] == "You live in Porto."
    assert sorted(out["written"]) == [  # what the user said in both conversations
        ("chat-1", "I moved to Porto last month, and I work at Acme."),
        ("chat-2", "Which city do I live in now?"),
    ]
    assert [item.get("role") for item in out["transcript"]] == [
        "user",
        None,
        None,
        "assistant",
    ]  # the question, the tool call and its output, the answer
    tools = {t["function"]["name"] for t in model.requests[0]["tools"]}
    assert tools == {"recall_memory", "remember"}


async def test_the_session_keeps_the_transcript_and_the_memory_keeps_what_was_written(
    live_api: LiveApi,
) -> None:
    agent = f"agents-{uuid.uuid4().hex[:8]}"
    user = {"role": "user", "content": "I work at Acme in Porto."}
    call = {"type": "function_call", "call_id": "c1", "name": "recall_memory", "arguments": "{}"}
    reply = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Noted."}],
    }
    assert [item_text(i) for i in (user, call, reply)] == [
        ("user", "I work at Acme in Porto."),
        None,
        ("assistant", "Noted."),
    ]
    url = f"{live_api.url}/graphql"
    async with AsyncHippographClient(url, api_key=live_api.admin_key) as aclient:

        async def written() -> list[tuple[str | None, str | None, str]]:
            edges = (await aclient.events(agent, first=20)).edges
            return [(e.node.speaker, e.node.thread_id, e.node.text) for e in edges]

        session = HippographSession("s-1", aclient, agent, user_name="Ana")
        await session.add_items([user, call, reply])
        assert await session.get_items() == [user, call, reply]
        assert await session.get_items(limit=1) == [reply]
        assert session.written == 1 and await written() == [("Ana", "s-1", user["content"])]

        assert await session.pop_item() == reply and await session.pop_item() == call
        assert await session.pop_item() == user and await session.pop_item() is None
        assert session.popped == [user]  # out of the transcript, still in the memory
        assert await written() == [("Ana", "s-1", user["content"])]

        await session.add_items([user])  # the same item at the same place: written once
        assert await session.get_items() == [user] and len(await written()) == 1
        await session.clear_session()
        assert await session.get_items() == [] and len(await written()) == 1
        await aclient.erase_agent(agent, confirm_agent_id=agent)
