"""Fixtures of the API integration tests."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.providers import HashEmbedder
from tests.integration.gql.support import ApiTestServices, load_story


@pytest.fixture
def services(executor: Executor, hash_embedder: HashEmbedder) -> ApiTestServices:
    return ApiTestServices(executor=executor, embedder=hash_embedder)


@pytest.fixture
async def story(executor: Executor, hash_embedder: HashEmbedder, agent_id: str) -> dict[str, str]:
    return await load_story(executor, hash_embedder, agent_id)
