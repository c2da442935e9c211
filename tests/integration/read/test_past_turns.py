"""Past turns stay past, on the real Neo4j: Guilherme moved Curitiba → São Paulo → Lisbon; the
turns of the two earlier homes, whose facts were superseded, rank below the turn of the current
one and read as earlier in the context; a retracted fact's turn too; at an earlier ``as_of`` the
home of that time is current again."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from graph.executor import Executor
from graph.memory.curation.edits import forget
from graph.memory.read import Retriever
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import RetrieveResult
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact
from graph.providers import Embedder
from tests.cypher import load_query

pytestmark = pytest.mark.neo4j

T1 = datetime(2025, 3, 10, 19, 2, tzinfo=UTC)
T2 = datetime(2025, 6, 2, 8, 30, tzinfo=UTC)
T3 = datetime(2026, 2, 3, 10, 0, tzinfo=UTC)
GUILHERME = "Guilherme Maturana"
QUESTION = "Where does Guilherme live?"
# No fact passes the cut: every turn stays a snippet (none is dropped as a returned fact's
# source), so the current home's turn is ranked beside the earlier ones.
TURNS_ONLY = {"min_score": 1.0, "enable_reranker": False}
FACTOR = RetrieveConfig().scoring.past_turn_factor


async def moves(executor: Executor, embedder: Embedder, agent_id: str) -> dict[str, str]:
    """Three homes, each said in a turn and extracted as a fact (FROM_EVENT); the first two
    closed by the next move (as an UPDATE closes a fact); returns the ids by name."""
    ids = {n: str(uuid.uuid4()) for n in ("e1", "e2", "e3", "f1", "f2", "f3")}
    turns = [
        ("e1", "Hi! I'm Guilherme Maturana and I live in Curitiba.", T1),
        ("e2", "I moved to São Paulo at the end of May.", T2),
        ("e3", "I moved to Lisbon in February for the Orion Tech office.", T3),
    ]
    homes = [("f1", "e1", "Curitiba", T1), ("f2", "e2", "São Paulo", T2)]
    homes.append(("f3", "e3", "Lisbon", T3))
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity(GUILHERME, "person")]
        + [StructuredEntity(city, "place") for _, _, city, _ in homes],
        events=[StructuredEvent(t, GUILHERME, at, id=ids[e]) for e, t, at in turns],
        facts=[
            StructuredFact(
                f"Guilherme Maturana lives in {city}",
                GUILHERME,
                entities=[city],
                id=ids[f],
                event_ids=[ids[e]],
                created_at=at,
                valid_from=at,
            )
            for f, e, city, at in homes
        ],
    )
    for fact, at in (("f1", T2), ("f2", T3)):
        await executor.run_text(
            load_query("read_close_fact"), {"agent_id": agent_id, "ids": [ids[fact]], "at": at}
        )
    return ids


def flags(result: RetrieveResult) -> dict[str, bool]:
    return {e.id: e.superseded for e in result.events}


async def test_the_earlier_homes_turns_rank_below_the_current_ones_and_read_as_earlier(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    ids = await moves(executor, embedder, agent_id)
    retriever = Retriever(executor, embedder)
    result = await retriever.retrieve(agent_id, QUESTION, options=TURNS_ONLY)
    assert result.facts == []
    assert flags(result) == {ids["e1"]: True, ids["e2"]: True, ids["e3"]: False}
    assert result.trace["events"]["past_turns"] == 2
    lines = result.context.split("Relevant conversations:\n")[1].splitlines()
    assert sorted(lines) == [
        "- (2025-03-10, earlier; since updated) Guilherme Maturana: Hi! I'm Guilherme Maturana "
        "and I live in Curitiba.",
        "- (2025-06-02, earlier; since updated) Guilherme Maturana: I moved to São Paulo at the "
        "end of May.",
        "- (2026-02-03) Guilherme Maturana: I moved to Lisbon in February for the Orion Tech office.",
    ]
    # by the factor: at 1 (no demotion) the earlier turns score 1 / FACTOR of what they score
    plain = await retriever.retrieve(
        agent_id, QUESTION, options={**TURNS_ONLY, "past_turn_factor": 1.0}
    )
    demoted = {e.id: e.score for e in result.events}
    for e in plain.events:
        assert demoted[e.id] == pytest.approx(e.score * (FACTOR if e.superseded else 1.0))

    # the default retrieve: the current fact answers, its turn is left out as its source, and
    # the earlier homes' turns are still shown, as earlier
    default = await retriever.retrieve(agent_id, QUESTION)
    assert default.facts[0].id == ids["f3"]
    assert flags(default) == {ids["e1"]: True, ids["e2"]: True}
    assert "(2025-03-10, earlier; since updated) Guilherme Maturana: Hi!" in default.context


async def test_as_of_the_sao_paulo_months_only_curitiba_is_earlier(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    ids = await moves(executor, embedder, agent_id)
    then = T2 + timedelta(days=30)
    result = await Retriever(executor, embedder).retrieve(
        agent_id, QUESTION, as_of=then, options=TURNS_ONLY
    )
    assert flags(result) == {ids["e1"]: True, ids["e2"]: False}  # e3 not said yet
    assert "(2025-06-02) Guilherme Maturana: I moved to São Paulo" in result.context


async def test_a_retracted_facts_turn_is_past_and_a_turn_with_a_current_fact_is_not(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    ids = {n: str(uuid.uuid4()) for n in ("porto", "pipoca", "f_porto", "f_pipoca", "f_beagle")}
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity(GUILHERME, "person"), StructuredEntity("Helena", "person")],
        events=[
            StructuredEvent("My sister Helena lives in Porto, I think.", GUILHERME, T1, ids["porto"]),
            StructuredEvent("Pipoca, my beagle, loves the beach.", GUILHERME, T1, ids["pipoca"]),
        ],
        facts=[
            StructuredFact("Helena lives in Porto", "Helena", id=ids["f_porto"], event_ids=[ids["porto"]]),
            StructuredFact("Pipoca loves the beach", GUILHERME, id=ids["f_pipoca"], event_ids=[ids["pipoca"]]),
            StructuredFact("Guilherme has a beagle called Pipoca", GUILHERME, id=ids["f_beagle"], event_ids=[ids["pipoca"]]),
        ],
    )  # fmt: skip
    await forget(executor, agent_id, ids["f_porto"], "Helena lives in Braga, not Porto")
    await forget(executor, agent_id, ids["f_pipoca"], "a mistake")
    retriever = Retriever(executor, embedder)
    seen: dict[str, bool] = {}
    for question in ("Where does Helena live?", "Tell me about Pipoca the beagle"):
        seen |= flags(await retriever.retrieve(agent_id, question, options=TURNS_ONLY))
    # one of the beach turn's two facts still holds: it is not past
    assert seen == {ids["porto"]: True, ids["pipoca"]: False}
