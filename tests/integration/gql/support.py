"""Helpers for API tests: the real composition root (``build_memory``) over the session
executor and a deterministic embedder, a small story, an in-process app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx

from gql.context import Context
from gql.permissions import LOCAL_ADMIN, Principal
from gql.schema import build_schema
from graph.executor import Executor
from graph.memory.facade import Memory
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import ChatLLM, Embedder
from server.composition import build_memory
from server.settings import Settings

schema = build_schema()


def memory_for(
    executor: Executor,
    embedder: Embedder,
    llm: ChatLLM | None = None,
    settings: Settings | None = None,
) -> Memory:
    """``build_memory`` over the session executor (offline unless ``llm`` is given)."""
    return build_memory(settings or Settings(), executor=executor, embedder=embedder, llm=llm)


async def gql(
    memory: Memory,
    query: str,
    variables: dict[str, Any] | None = None,
    principal: Principal = LOCAL_ADMIN,
) -> Any:
    """Execute against the schema directly (no HTTP)."""
    return await schema.execute(
        query, variables, context_value=Context(memory=memory, principal=principal)
    )


async def load_story(executor: Executor, embedder: Embedder, agent_id: str) -> dict[str, str]:
    """A small story: Clara works at Vertix (Curitiba); returns entity keys by name."""
    result = await remember(
        executor,
        embedder,
        agent_id,
        entities=[
            StructuredEntity(name="Clara Rezende", type="person", aliases=["Clarinha"]),
            StructuredEntity(name="Vertix", type="organization"),
            StructuredEntity(name="Curitiba", type="city"),
        ],
        facts=[
            StructuredFact(
                text="Clara Rezende works at Vertix as a data engineer",
                subject="Clara Rezende",
                entities=["Vertix"],
            ),
            StructuredFact(
                text="Clara Rezende lives in Curitiba",
                subject="Clara Rezende",
                entities=["Curitiba"],
            ),
            StructuredFact(
                text="Vertix has its office in Curitiba", subject="Vertix", entities=["Curitiba"]
            ),
        ],
        relations=[
            StructuredRelation(source="Clara Rezende", target="Vertix", type="works_at"),
            StructuredRelation(source="Clara Rezende", target="Curitiba", type="lives_in"),
            StructuredRelation(source="Vertix", target="Curitiba", type="based_in"),
        ],
    )
    return dict(result.entity_keys)


@asynccontextmanager
async def http_client(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An httpx client over the ASGI app with its lifespan running."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5555))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            yield client
