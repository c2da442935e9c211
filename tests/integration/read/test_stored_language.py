"""A fact's language is stored when it is written and comes back with it: the read side
detects it again only for what has none stored (a turn, an unclear text)."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever, ranking
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import Embedder

pytestmark = pytest.mark.neo4j

FACTS = [
    StructuredFact("Guilherme lives in Lisbon with his wife.", "Guilherme", id="sl-en"),
    StructuredFact("O Guilherme mora em Lisboa com a esposa.", "Guilherme", id="sl-pt"),
]


async def test_every_signal_returns_the_language_stored_with_the_fact(
    executor: Executor, agent_id: str, embedder: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Guilherme", "person")],
        facts=FACTS,
    )
    detected: list[str] = []

    def detect(text: str) -> str:
        detected.append(text)
        return ""

    monkeypatch.setattr(ranking, "_language", detect)
    options = {"enable_reranker": False, "min_score": 0.0}
    for query in ("Where does Guilherme live?", "Onde mora o Guilherme?"):
        result = await Retriever(executor, embedder).retrieve(agent_id, query, options=options)
        languages = {f.id: f.language for f in result.facts}
        assert languages == {"sl-en": "en", "sl-pt": "pt"}, query
    assert not set(detected) & {f.text for f in FACTS}
