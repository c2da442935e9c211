"""LlamaIndex chat memory whose long-term part is Hippograph (no LLM needed):

    python gql/clients/python/examples/llamaindex_memory.py [GRAPHQL_URL] [API_KEY]

A LlamaIndex ``Memory`` keeps the last turns itself; older turns flush into the Hippograph block,
which writes what the user said (facts extracted and versioned). Asking for the memory then
gives the recent turns plus the memory's context for the latest question, and the retriever
ranks the facts themselves. Tokens are counted as words here, so nothing is downloaded. Against
`make run`'s server the URL is http://127.0.0.1:8000/graphql and no key is needed.
"""

from __future__ import annotations

import asyncio
import sys
import uuid

from hippograph_client import AsyncHippographClient
from hippograph_client.llamaindex import HippographMemoryBlock, HippographRetriever
from llama_index.core.llms import ChatMessage
from llama_index.core.memory import Memory

CONVERSATION = [
    ("user", "I live in Curitiba and I work at Acme as a data engineer."),
    ("assistant", "Good to know, thanks for telling me."),
    ("user", "My sister Bia is a nurse in Recife."),
    ("assistant", "Noted, Bia works as a nurse in Recife."),
    ("user", "Which city do I live in?"),
]


async def main(url: str, api_key: str | None = None) -> dict[str, object]:
    agent = f"llamaindex-{uuid.uuid4().hex[:8]}"
    async with AsyncHippographClient(url, api_key=api_key) as aclient:
        memory = Memory.from_defaults(
            session_id="chat-1",
            token_limit=60,
            chat_history_token_ratio=0.5,  # over 30 words of turns: the oldest flush
            token_flush_size=20,
            tokenizer_fn=str.split,
            memory_blocks=[HippographMemoryBlock(client=aclient, agent_id=agent, user_name="Ana")],
        )
        for role, text in CONVERSATION:
            await memory.aput(ChatMessage(role=role, content=text))
        messages = await memory.aget()
        nodes = await HippographRetriever(agent_id=agent, aclient=aclient, k=3).aretrieve(
            "Where does Ana live?"
        )
        written = await aclient.events(agent, thread_id="chat-1", first=20)
        await aclient.erase_agent(agent, confirm_agent_id=agent)
    return {
        "prompt": [f"{m.role.value}: {m.content}" for m in messages],
        "facts": [(n.node.get_content(), n.score) for n in nodes],
        "written": [e.node.text for e in written.edges],
    }


if __name__ == "__main__":
    args = sys.argv[1:]
    url = args[0] if args else "http://127.0.0.1:8000/graphql"
    for key, value in asyncio.run(main(url, args[1] if len(args) > 1 else None)).items():
        print(key, value, sep=": ")
