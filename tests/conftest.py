"""Shared fixtures. Integration tests talk to the tests' own local Neo4j, which scripts/test.sh
starts (scripts/test-env.sh: its own folder and ports, never the database `make run` serves),
or to NEO4J_URI; each test works under its own random agent_id and removes it afterwards, so
tests never disturb each other."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor, connect
from graph.providers import E5Embedder, Embedder, HashEmbedder, MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings

# The fixtures write with MiniLM (``embedder``), and every process the tests start (the CLI,
# `hippograph serve`) must read with the same model: the suite runs with MiniLM unless the
# caller chose. Tests of the multilingual default build e5 themselves (the ``e5`` fixture).
os.environ.setdefault("HIPPOGRAPH_EMBEDDER", "minilm")
# The API processes the tests start report ready at once instead of warming up first (loading
# the models and planning the hot statements, ~12 s to /readyz on two cores): only the tests of
# the warm start itself and the first-minutes walk (the real default) turn it back on.
os.environ.setdefault("HIPPOGRAPH_WARM_UP", "false")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        metavar="DIR",
        default=None,
        help="browser e2e tests also save their screenshots (PNG) into DIR, e.g. docs/",
    )


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings()


@pytest.fixture(scope="session")
def minilm(settings: Settings) -> MiniLMEmbedder:
    return MiniLMEmbedder(find_tokenizer(settings.home))


@pytest.fixture(scope="session")
def e5() -> E5Embedder:
    """multilingual-e5-small (the default embedder), loaded once for the session."""
    return E5Embedder()


@pytest.fixture(scope="session")
def hash_embedder() -> HashEmbedder:
    return HashEmbedder(384)


@pytest.fixture(scope="session")
def embedder(minilm: MiniLMEmbedder) -> Embedder:
    """The real default embedder (MiniLM int8 ONNX): tests see real similarities."""
    return minilm


@pytest.fixture(scope="session")
async def executor(settings: Settings) -> AsyncIterator[Executor]:
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    if not await ex.ping():
        pytest.fail(
            f"Neo4j is not reachable at {settings.bolt_uri}: run `make test`, which starts it "
            "(or `source scripts/test-env.sh && .venv/bin/hippograph neo4j start`)"
        )
    await ensure_schema(ex, 384)
    yield ex
    await ex.close()


@pytest.fixture
async def agent_id(executor: Executor) -> AsyncIterator[str]:
    """A fresh agent id; every node of that agent is deleted after the test."""
    agent = f"test-{uuid.uuid4().hex[:12]}"
    yield agent
    await delete_agent(executor, agent)


@pytest.fixture
async def other_agent(executor: Executor) -> AsyncIterator[str]:
    """A second fresh agent id (imports, tenancy), deleted after the test like ``agent_id``."""
    agent = f"test-{uuid.uuid4().hex[:12]}"
    yield agent
    await delete_agent(executor, agent)
