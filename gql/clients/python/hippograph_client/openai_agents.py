"""The OpenAI Agents SDK on Hippograph (``pip install 'hippograph-client[openai-agents]'``).

- :class:`HippographSession` is an SDK session (``Runner.run(agent, text, session=...)``) whose
  conversation also becomes long-term memory: every user message added to it is written to the
  agent's memory through ``write`` (extraction, reconciliation, versioned facts), with the
  session id as its thread and the turns before it as its recent messages.
- :func:`memory_tools` gives an agent two function tools on the same memory: ``recall_memory``
  (``retrieve``'s formatted context for a question) and ``remember`` (``write`` a statement).

How the session's four calls map onto a memory that never deletes (versioned, append-only):

- The **transcript** — the exact items the SDK replays, tool calls included — is kept by an SDK
  session of your choice (``transcript=``; by default an in-memory ``SQLiteSession``), because
  the memory keeps what was said, not the SDK's item structure.
- ``add_items`` writes the messages of ``write_roles`` (default: the user's), then adds the items
  to the transcript. Each write carries an idempotency key made of the session id, the item's
  position and its content, so adding the same item at the same place again (the SDK re-adds
  items after a rewind) does not write twice.
- ``pop_item`` and ``clear_session`` act on the transcript only and return what the protocol
  says; what was written stays in the memory (a write is never undone: its facts are versioned
  and can be retired with ``forget``, or deleted with ``eraseFact`` / ``eraseAgent``).
  ``written`` counts the messages written so far; ``popped`` lists the items popped whose
  write the memory keeps.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from agents import FunctionTool, SQLiteSession, function_tool
from agents.items import TResponseInputItem
from agents.memory import Session, SessionSettings

from hippograph_client.aio.client import AsyncHippographClient

__all__ = ["HippographSession", "item_text", "memory_tools"]

RECENT_MESSAGES = 8
TEXT_PARTS = ("input_text", "output_text", "text")


def item_text(item: TResponseInputItem | dict[str, Any]) -> tuple[str, str] | None:
    """A message item's role and text (``None`` for tool calls, reasoning and the like)."""
    data: dict[str, Any] = dict(item)  # type: ignore[arg-type]
    if data.get("type", "message") != "message" or not isinstance(data.get("role"), str):
        return None
    content = data.get("content")
    if isinstance(content, list):
        content = "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") in TEXT_PARTS
        )
    if not isinstance(content, str) or not content.strip():
        return None
    return data["role"], content.strip()


def item_key(session_id: str, position: int, item: Any) -> str:
    """The idempotency key of the write of the item at ``position`` of the transcript."""
    digest = hashlib.sha256(json.dumps(item, sort_keys=True, default=str).encode()).hexdigest()
    return f"agents:{session_id}:{position}:{digest[:16]}"


class HippographSession:
    """An Agents SDK session whose user messages are written to ``agent_id``'s memory through
    ``client``; the transcript itself lives in ``transcript`` (see the module's docstring)."""

    def __init__(
        self,
        session_id: str,
        client: AsyncHippographClient,
        agent_id: str,
        transcript: Session | None = None,
        user_name: str = "user",
        assistant_name: str = "assistant",
        write_roles: tuple[str, ...] = ("user",),
    ) -> None:
        self.session_id = session_id
        self.client = client
        self.agent_id = agent_id
        self.transcript: Session = transcript or SQLiteSession(session_id)
        self.session_settings: SessionSettings | None = self.transcript.session_settings
        self.speakers = {"user": user_name, "assistant": assistant_name}
        self.write_roles = write_roles
        self.written = 0
        self.popped: list[TResponseInputItem] = []

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        return await self.transcript.get_items(limit)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        before = await self.transcript.get_items()
        said = [f"{self.speakers.get(r, r)}: {t}" for r, t in filter(None, map(item_text, before))]
        for position, item in enumerate(items, start=len(before)):
            message = item_text(item)
            if message is None:
                continue
            role, text = message
            speaker = self.speakers.get(role, role)
            if role in self.write_roles:
                await self.client.write(
                    self.agent_id,
                    text,
                    speaker_name=speaker,
                    recent_messages=said[-RECENT_MESSAGES:] or None,
                    thread_id=self.session_id,
                    idempotency_key=item_key(self.session_id, position, item),
                )
                self.written += 1
            said.append(f"{speaker}: {text}")
        await self.transcript.add_items(items)

    async def pop_item(self) -> TResponseInputItem | None:
        """The transcript's last item, removed from it; its write (if any) stays in memory."""
        item = await self.transcript.pop_item()
        if item is not None and self._was_written(item):
            self.popped.append(item)
        return item

    async def clear_session(self) -> None:
        """Empties the transcript; the memory keeps every message written."""
        await self.transcript.clear_session()

    def _was_written(self, item: TResponseInputItem) -> bool:
        message = item_text(item)
        return message is not None and message[0] in self.write_roles


def memory_tools(
    client: AsyncHippographClient, agent_id: str, speaker_name: str = "assistant", top_k: int = 10
) -> list[FunctionTool]:
    """``recall_memory`` and ``remember`` on ``agent_id``'s memory, for ``Agent(tools=...)``."""

    async def recall_memory(question: str) -> str:
        """What the long-term memory knows that answers a question.

        Args:
            question: The question to answer from memory, in plain words.
        """
        found = await client.retrieve(agent_id, question, options={"topkFacts": top_k})
        return found.context or "Nothing relevant is remembered."

    async def remember(statement: str) -> str:
        """Store a statement in long-term memory (facts are extracted and versioned).

        Args:
            statement: What to remember, as one self-contained sentence.
        """
        payload = await client.write(agent_id, statement, speaker_name=speaker_name)
        outcome = payload.outcome
        stored = len(outcome.facts_added) + len(outcome.facts_updated) if outcome else 0
        return f"Remembered ({stored} new or updated facts)."

    return [function_tool(recall_memory), function_tool(remember)]
