"""An OpenAI Agents SDK agent whose long-term memory is Hippograph:

    OPENAI_API_KEY=... python gql/clients/python/examples/openai_agents_memory.py \
        [GRAPHQL_URL] [API_KEY]

It needs a model: ``OPENAI_API_KEY`` (for OpenAI, or any value with ``OPENAI_BASE_URL`` naming
an OpenAI-compatible endpoint), the client's ``openai-agents`` extra
(``pip install -e 'gql/clients/python[openai-agents]'``) and a running API (``make run``).
Without a key or the extra it says so and exits with status 2.

In a first conversation the user says where they live; the session writes it to the memory. A
second conversation starts with an empty transcript, and the agent answers from memory through
its ``recall_memory`` tool. Any OpenAI-compatible endpoint works (``OPENAI_BASE_URL``); the
tests drive the same code with a scripted model. SDK tracing is off, so nothing is sent beyond
the model calls. Against `make run`'s server the URL is http://127.0.0.1:8000/graphql and no
key is needed.
"""

from __future__ import annotations

import asyncio
import os
import sys
import uuid

try:
    from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner
    from hippograph_client import AsyncHippographClient
    from hippograph_client.openai_agents import HippographSession, memory_tools
    from openai import AsyncOpenAI
except ImportError as missing:  # the extra is not installed: say what to install, no traceback
    if __name__ != "__main__":
        raise
    print(
        f"this example needs the OpenAI Agents SDK ({missing.name} is missing): "
        "pip install -e 'gql/clients/python[openai-agents]'",
        file=sys.stderr,
    )
    sys.exit(2)

INSTRUCTIONS = (
    "You are a helpful assistant with a long-term memory. Before answering a question about "
    "the user, call recall_memory and answer from what it returns."
)


async def main(
    url: str,
    api_key: str | None = None,
    openai_client: AsyncOpenAI | None = None,
    model: str = "gpt-4.1-mini",
) -> dict[str, object]:
    agent_id = f"agents-{uuid.uuid4().hex[:8]}"
    config = RunConfig(tracing_disabled=True)
    async with AsyncHippographClient(url, api_key=api_key) as memory:
        assistant = Agent(
            name="assistant",
            instructions=INSTRUCTIONS,
            model=OpenAIChatCompletionsModel(model, openai_client or AsyncOpenAI()),
            tools=memory_tools(memory, agent_id),
        )
        first = HippographSession("chat-1", memory, agent_id, user_name="Ana")
        said = "I moved to Porto last month, and I work at Acme."
        await Runner.run(assistant, said, session=first, run_config=config)
        second = HippographSession("chat-2", memory, agent_id, user_name="Ana")
        answer = await Runner.run(
            assistant, "Which city do I live in now?", session=second, run_config=config
        )
        written = await memory.events(agent_id, first=20)
        await memory.erase_agent(agent_id, confirm_agent_id=agent_id)
    return {
        "answer": answer.final_output,
        "transcript": await second.get_items(),
        "written": [(e.node.thread_id, e.node.text) for e in written.edges],
    }


NEEDS_KEY = (
    "this example needs a model: set OPENAI_API_KEY (for OpenAI), or OPENAI_BASE_URL with any "
    "OPENAI_API_KEY value for an OpenAI-compatible endpoint (vLLM, Ollama, LM Studio)"
)


if __name__ == "__main__":
    if not os.environ.get("OPENAI_API_KEY"):
        print(NEEDS_KEY, file=sys.stderr)
        sys.exit(2)
    args = sys.argv[1:]
    url = args[0] if args else "http://127.0.0.1:8000/graphql"
    for key, value in asyncio.run(main(url, args[1] if len(args) > 1 else None)).items():
        print(key, value, sep=": ")
