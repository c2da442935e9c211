"""Fixtures of the ontology tests: the API's services and the small story of the API tests."""

from __future__ import annotations

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
