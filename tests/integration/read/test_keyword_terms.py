"""The keyword signal's field: every stored fact and event carries ``terms`` (its words cut to
five characters, schema/backfill_terms), the question's words are cut the same way
(planner.lucene_query), and so a question in one language finds by keyword a fact said in
another when they share cognates, and facts stored before the field existed are filled."""

from __future__ import annotations

import pytest

from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.read.planner import lucene_query
from graph.memory.read.words import keywords
from graph.memory.write import WritePipeline
from graph.providers import Embedder
from graph.schema import BACKFILLS, _backfill
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

TEXT = "Rafael mediu a precipitação em São Paulo — “salinidade” (3.5 psu) e sedimentos!"


async def stored_terms(executor: Executor, agent_id: str) -> list[str]:
    rows = await executor.run_text(
        "MATCH (f:Fact {agent_id: $agent_id}) RETURN f.terms AS terms", {"agent_id": agent_id}
    )
    return [r["terms"] for r in rows]


async def test_the_question_is_cut_as_the_stored_text_is(
    executor: Executor, agent_id: str, e5: Embedder
) -> None:
    result = await WritePipeline(executor, e5, None).write(agent_id, TEXT, "Rafael")
    assert result.success and result.facts_added
    (terms,) = await stored_terms(executor, agent_id)
    stored = set(terms.split())
    asked = set(lucene_query(keywords(TEXT)).replace("\\", "").split(" OR "))
    assert {"preci", "salin", "sedim", "paulo", "são"} <= asked
    assert asked <= stored, asked - stored


async def test_a_portuguese_question_finds_an_english_fact_by_its_cognates(
    executor: Executor, agent_id: str, e5: Embedder
) -> None:
    pipe = WritePipeline(executor, e5, None)
    for message in [
        "Precipitation in the Northeast is forecast from sea surface temperature anomalies.",
        "The harbour opens at six in the morning.",
    ]:
        assert (await pipe.write(agent_id, message, "Rafael")).success
    found = await Retriever(executor, e5).retrieve(
        agent_id, "Como se prevê a precipitação no Nordeste a partir das anomalias?"
    )
    by_keyword = [f.text for f in found.facts if f.scores.keyword > 0]
    assert by_keyword and by_keyword[0].startswith("Precipitation"), found.facts


async def test_facts_stored_without_terms_are_filled_at_start(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    vector = (await embedder.embed(["x"]))[0]
    await executor.run_text(
        load_query("create_facts"),
        {"agent_id": agent_id, "rows": [{"text": "Sedimentos do estuário", "embedding": vector}]},
    )
    assert await stored_terms(executor, agent_id) == [None]
    await _backfill(executor, BACKFILLS["schema/v011_keyword_terms"])
    assert await stored_terms(executor, agent_id) == ["sedim do estuá"]
