"""The framework adapters' pure parts: which Agents SDK items are messages and the keys of their
writes, the LlamaIndex block's query, and the LangGraph store's steps run by either client."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import pytest
from hippograph_client.errors import NotFound
from hippograph_client.langgraph import Call, arun_steps, call, run_steps
from hippograph_client.llamaindex import latest_user_text
from hippograph_client.openai_agents import item_key, item_text
from llama_index.core.llms import ChatMessage


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ({"role": "user", "content": "  I live in Porto. "}, ("user", "I live in Porto.")),
        (
            {
                "type": "message",
                "role": "assistant",
                "content": [
                    {"type": "output_text", "text": "You live "},
                    {"type": "refusal", "refusal": "no"},
                    {"type": "output_text", "text": "in Porto."},
                ],
            },
            ("assistant", "You live in Porto."),
        ),
        ({"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}, None),
        ({"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}, None),
        ({"type": "function_call_output", "call_id": "c", "output": "Porto"}, None),
        ({"type": "reasoning", "id": "r", "summary": []}, None),
        ({"role": "user", "content": "   "}, None),
    ],
)
def test_only_messages_with_text_are_written(item: dict[str, Any], message: Any) -> None:
    assert item_text(item) == message


def test_a_write_key_names_the_session_the_position_and_the_content() -> None:
    item = {"role": "user", "content": "I live in Porto."}
    assert item_key("s", 3, item) == item_key("s", 3, dict(reversed(item.items())))
    assert len({item_key("s", 3, item), item_key("s", 4, item), item_key("t", 3, item)}) == 3
    assert item_key("s", 3, item) != item_key("s", 3, {**item, "content": "I live in Braga."})


def test_the_block_asks_what_the_user_said_last() -> None:
    said = [
        ChatMessage(role="user", content="I live in Porto."),
        ChatMessage(role="user", content="Where do I live?"),
        ChatMessage(role="assistant", content="Let me check."),
        ChatMessage(role="user", content="  "),
    ]
    assert latest_user_text(said) == "Where do I live?"
    assert latest_user_text([ChatMessage(role="system", content="Be brief.")]) == ""
    assert latest_user_text(None) == ""


class Memory:
    """A client with two calls: ``entity`` (unknown keys raise NotFound) and ``forget``."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def entity(self, agent: str, key: str) -> str:
        self.calls.append(call("entity", agent, key))
        if key != "known":
            raise NotFound("no such entity")
        return f"{agent}/{key}"

    def forget(self, agent: str, fact: str, reason: str) -> str:
        self.calls.append(call("forget", agent, fact, reason=reason))
        return "forgotten"


class AsyncMemory:
    """The same calls, awaited."""

    def __init__(self) -> None:
        self.memory = Memory()
        self.calls = self.memory.calls

    async def entity(self, agent: str, key: str) -> str:
        return self.memory.entity(agent, key)

    async def forget(self, agent: str, fact: str, reason: str) -> str:
        return self.memory.forget(agent, fact, reason)


def steps(key: str) -> Generator[Call, Any, Any]:
    try:
        found = yield call("entity", "ana", key)
    except NotFound:
        return "missing"
    done = yield call("forget", "ana", found, reason="replaced")
    return (found, done)


def test_steps_run_the_same_on_either_client() -> None:
    sync, aio = Memory(), AsyncMemory()
    assert run_steps(sync, steps("known")) == ("ana/known", "forgotten")
    assert run_steps(sync, steps("other")) == "missing"
    assert asyncio.run(arun_steps(aio, steps("known"))) == ("ana/known", "forgotten")
    assert asyncio.run(arun_steps(aio, steps("other"))) == "missing"
    assert (
        sync.calls
        == aio.calls
        == [
            call("entity", "ana", "known"),
            call("forget", "ana", "ana/known", reason="replaced"),
            call("entity", "ana", "other"),
        ]
    )
