"""LlamaIndex on Hippograph (``pip install 'hippograph-client[llamaindex]'``).

- :class:`HippographRetriever` is a LlamaIndex retriever over one agent's memory: each node is
  a fact ``retrieve`` ranked (its text, its id as the node id, ``retrieve``'s final score as the
  node's score, id, subject, kind, validity and evidence in the metadata). It only reads.
- :class:`HippographMemoryBlock` is a long-term block for ``llama_index.core.memory.Memory``:
  ``aget`` answers the latest user message with ``retrieve``'s formatted context (the facts,
  snippets and patterns that answer it, within the service's ``context_max_tokens``); ``aput``
  writes each user message through ``write`` (extraction, reconciliation, versioned facts),
  the conversation before it as its recent messages and the memory's session as its thread.
  Assistant messages are context only unless ``write_roles`` names them too.

    memory = Memory.from_defaults(
        session_id="chat-1", token_limit=4000,
        memory_blocks=[HippographMemoryBlock(client=aclient, agent_id="ana")],
    )

Nothing a block is given is deleted later: LlamaIndex flushes old turns out of its short-term
buffer into the block, and they stay in the memory as versioned facts (``forget`` retires one).
The block's ``priority`` is 0 unless set, so LlamaIndex never truncates it: the service already
fits the context to its token budget. With a priority, an over-budget ``Memory`` drops the
block's context whole (LlamaIndex's default truncation), never part of a fact.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.bridge.pydantic import Field
from llama_index.core.memory.memory import BaseMemoryBlock
from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from hippograph_client.aio.client import AsyncHippographClient
from hippograph_client.ranked import fact_metadata
from hippograph_client.sync.client import HippographClient

__all__ = ["HippographMemoryBlock", "HippographRetriever", "to_node"]

RECENT_MESSAGES = 8


def to_node(fact: Any) -> NodeWithScore:
    """One ranked fact as a scored LlamaIndex node."""
    node = TextNode(id_=fact.id, text=fact.text, metadata=fact_metadata(fact))
    return NodeWithScore(node=node, score=fact.score)


class HippographRetriever(BaseRetriever):
    """The ``k`` facts of ``agent_id``'s memory that best answer a query (``as_of``: the memory
    as it was then). ``client`` serves ``retrieve``, ``aclient`` ``aretrieve``."""

    def __init__(
        self,
        agent_id: str,
        client: HippographClient | None = None,
        aclient: AsyncHippographClient | None = None,
        k: int = 5,
        as_of: datetime | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.agent_id = agent_id
        self.client = client
        self.aclient = aclient
        self.k = k
        self.as_of = as_of

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if self.client is None:
            raise RuntimeError("HippographRetriever(client=HippographClient(...)) for retrieve")
        found = self.client.retrieve(
            self.agent_id, query_bundle.query_str, as_of=self.as_of, options={"topkFacts": self.k}
        )
        return [to_node(f) for f in found.facts]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if self.aclient is None:
            raise RuntimeError("HippographRetriever(aclient=AsyncHippographClient(...))")
        found = await self.aclient.retrieve(
            self.agent_id, query_bundle.query_str, as_of=self.as_of, options={"topkFacts": self.k}
        )
        return [to_node(f) for f in found.facts]


def latest_user_text(messages: list[ChatMessage] | None) -> str:
    """What the user said last (the block's query), or ``""``."""
    for message in reversed(messages or []):
        if message.role == MessageRole.USER and (message.content or "").strip():
            return str(message.content).strip()
    return ""


class HippographMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory for a LlamaIndex ``Memory``: ``agent_id``'s memory on a Hippograph
    service, read with ``retrieve`` and written with ``write`` through ``client``."""

    name: str = Field(default="hippograph", description="The block's name in the prompt.")
    description: str | None = Field(
        default="What is known about the user, from earlier conversations."
    )
    client: AsyncHippographClient = Field(description="The async client of the service.")
    agent_id: str = Field(description="The agent whose memory this is.")
    user_name: str = Field(default="user", description="The speaker name of user messages.")
    assistant_name: str = Field(default="assistant", description="The assistant's speaker name.")
    write_roles: tuple[str, ...] = Field(
        default=("user",), description="Roles whose messages are written (the rest is context)."
    )
    top_k: int = Field(default=10, description="Facts ranked for the context.")

    def speaker(self, message: ChatMessage) -> str:
        return self.user_name if message.role == MessageRole.USER else self.assistant_name

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        query = latest_user_text(messages)
        if not query:
            return ""
        found = await self.client.retrieve(self.agent_id, query, options={"topkFacts": self.top_k})
        return found.context

    async def _aput(self, messages: list[ChatMessage]) -> None:
        said: list[str] = []
        for message in messages:
            text = (message.content or "").strip()
            if not text or message.role not in (MessageRole.USER, MessageRole.ASSISTANT):
                continue
            if message.role.value in self.write_roles:
                await self.client.write(
                    self.agent_id,
                    text,
                    speaker_name=self.speaker(message),
                    recent_messages=said[-RECENT_MESSAGES:] or None,
                    thread_id=message.additional_kwargs.get("session_id"),
                )
            said.append(f"{self.speaker(message)}: {text}")
