"""A LangGraph graph whose long-term memory is Hippograph (no LLM needed):

    python gql/clients/python/examples/langgraph_memory.py [GRAPHQL_URL] [API_KEY]

The first node stores what the user said under the user's namespace, the second recalls the
memories that answer the question. Against `make run`'s server the URL is
http://127.0.0.1:8000/graphql and no key is needed.
"""

from __future__ import annotations

import sys
import uuid
from typing import TypedDict

from hippograph_client import HippographClient
from hippograph_client.langgraph import HippographStore
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore


class Turn(TypedDict):
    user: str
    said: str
    question: str
    recalled: list[str]


def remember(state: Turn, *, store: BaseStore) -> dict[str, object]:
    store.put(("memories", state["user"]), uuid.uuid4().hex[:12], {"text": state["said"]})
    return {}


def recall(state: Turn, *, store: BaseStore) -> dict[str, object]:
    found = store.search(("memories", state["user"]), query=state["question"], limit=3)
    return {"recalled": [item.value["text"] for item in found]}


def build(store: BaseStore):  # type: ignore[no-untyped-def]
    graph = StateGraph(Turn)
    graph.add_node("remember", remember)
    graph.add_node("recall", recall)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", "recall")
    graph.add_edge("recall", END)
    return graph.compile(store=store)


def main(url: str, api_key: str | None = None) -> list[str]:
    with HippographClient(url, api_key=api_key) as client:
        app = build(HippographStore(client=client))
        user = f"ana-{uuid.uuid4().hex[:6]}"
        out = app.invoke(
            {
                "user": user,
                "said": "I live in Curitiba and I work at Acme.",
                "question": "Where does the user live?",
                "recalled": [],
            }
        )
        client.erase_agent(f"memories/{user}", confirm_agent_id=f"memories/{user}")
    return list(out["recalled"])


if __name__ == "__main__":
    args = sys.argv[1:]
    print(
        main(
            args[0] if args else "http://127.0.0.1:8000/graphql", args[1] if len(args) > 1 else None
        )
    )
