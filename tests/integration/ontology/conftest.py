"""Fixtures of the ontology tests: the API's services and the small story of the API tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from graph.executor import Executor
from graph.memory.facade import Memory
from graph.providers import HashEmbedder
from tests.integration.gql.support import load_story, memory_for


@pytest.fixture
def services(executor: Executor, hash_embedder: HashEmbedder) -> Memory:
    return memory_for(executor, hash_embedder)


@pytest.fixture
async def story(executor: Executor, hash_embedder: HashEmbedder, agent_id: str) -> dict[str, str]:
    return await load_story(executor, hash_embedder, agent_id)


@pytest.fixture
async def tenant(executor: Executor) -> AsyncIterator[str]:
    """A fresh tenant name; its ontology versions are deleted after the test."""
    name = f"tenant-{uuid.uuid4().hex[:8]}"
    yield name
    await executor.run_text(
        "MATCH (o:Ontology {scope: 'tenant', scope_id: $t}) DETACH DELETE o", {"t": name}
    )
