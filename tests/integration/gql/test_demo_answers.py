"""The demo answers where Guilherme lives in either language: the fact of his move to Lisbon,
said in Portuguese, ranks first for "Where does Guilherme live?" and for "Onde o Guilherme
mora?", through GraphQL, with the default embedder (multilingual e5)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.providers import E5Embedder
from seed.loader import load_demo
from server.settings import Settings
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

RETRIEVE = """query($a: ID!, $q: String!) {
  retrieve(agentId: $a, query: $q) { facts { text } } }"""


def test_the_default_embedder_is_multilingual() -> None:
    assert Settings.model_fields["embedder"].default == "e5"  # the suite itself runs MiniLM


@pytest.mark.parametrize("question", ["Where does Guilherme live?", "Onde o Guilherme mora?"])
async def test_the_demo_answers_where_guilherme_lives(
    executor: Executor, e5: E5Embedder, agent_id: str, question: str
) -> None:
    memory = memory_for(executor, e5)
    await load_demo(memory, agent_id, progress=False)
    res = await gql(memory, RETRIEVE, {"a": agent_id, "q": question})
    assert res.errors is None, res.errors
    texts = [f["text"] for f in res.data["retrieve"]["facts"]]
    assert "Lisboa" in texts[0] and "mudou" in texts[0], texts[:3]
