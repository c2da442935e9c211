"""Skip without queries, time travel, invalidated relationships, events and observations,
aggregation, bad input — against the real Neo4j."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, StructuredRelation
from graph.providers import Embedder
from tests.cypher import load_query
from tests.fakes import RecordingExecutor
from tests.integration.read.data import (
    MARCOS_ENTITIES,
    MARCOS_FACTS,
    MARCOS_RELATIONS,
)

pytestmark = pytest.mark.neo4j

T0 = datetime(2025, 1, 10, tzinfo=UTC)
T1 = datetime(2025, 6, 1, tzinfo=UTC)


class CountingEmbedder:
    """Wraps an embedder and counts calls (to prove a skip embeds nothing)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dimensions, self.calls = inner, inner.name, inner.dimensions, 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return await self.inner.embed(texts)


@pytest.mark.parametrize("query", ["hi", "bom dia", "Obrigado!", "hello there"])
async def test_greetings_skip_with_zero_database_queries(
    executor: Executor, embedder: Embedder, query: str
) -> None:
    recording = RecordingExecutor(executor)
    counting = CountingEmbedder(embedder)
    result = await Retriever(recording, counting).retrieve("test-anyone", query)
    assert result.plan.strategy == "skip" and result.plan.reason == "greeting"
    assert result.facts == [] and result.context == ""
    assert recording.names == [] and recording.round_trips == 0 and counting.calls == 0


async def test_time_travel_superseded_fact_reappears(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    old_id, new_id = str(uuid.uuid4()), str(uuid.uuid4())
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Marcos Tavares", "person")],
        facts=[
            StructuredFact(
                "Marcos Tavares lives in São Paulo",
                "Marcos Tavares",
                id=old_id,
                created_at=T0,
                valid_from=T0,
            ),
            StructuredFact(
                "Marcos Tavares lives in Porto Alegre",
                "Marcos Tavares",
                id=new_id,
                created_at=T1,
                valid_from=T1,
            ),
        ],
    )
    await executor.run_text(
        load_query("read_close_fact"), {"agent_id": agent_id, "ids": [old_id], "at": T1}
    )
    retriever = Retriever(executor, embedder)
    query = "Where does Marcos Tavares live?"
    now_ids = [f.id for f in (await retriever.retrieve(agent_id, query)).facts]
    assert new_id in now_ids and old_id not in now_ids
    past = await retriever.retrieve(agent_id, query, as_of=T0 + timedelta(days=30))
    past_ids = [f.id for f in past.facts]
    assert old_id in past_ids and new_id not in past_ids
    assert "São Paulo" in past.context and "Porto Alegre" not in past.context
    # naive as_of is read as UTC; exactly at T1 the new version is valid, the old one is not
    at_switch = await retriever.retrieve(agent_id, query, as_of=T1.replace(tzinfo=None))
    assert [f.id for f in at_switch.facts] == [new_id]


async def test_invalidated_relationship_not_traversed_unless_as_of_before(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=MARCOS_ENTITIES,
        facts=[
            StructuredFact(f.text, f.subject, entities=f.entities, created_at=T0, valid_from=T0)
            for f in MARCOS_FACTS
        ],
        relations=MARCOS_RELATIONS,
    )
    await executor.run_text(
        load_query("read_backdate_relation"),
        {
            "agent_id": agent_id,
            "source": "person:marcos_tavares",
            "target": "person:carolina",
            "type": "married_to",
            "created": T0,
            "closed": T1,
        },
    )
    retriever = Retriever(executor, embedder)
    query = "Tell me everything about Marcos Tavares"

    def graph_texts(result: object) -> set[str]:
        return {f.text for f in result.facts if "graph" in f.sources}  # type: ignore[attr-defined]

    now = await retriever.retrieve(agent_id, query)
    assert "Carolina is an architect" not in graph_texts(now)  # only reachable via married_to
    assert "person:carolina" not in {e.key for e in now.plan.entities}
    before = await retriever.retrieve(agent_id, query, as_of=T0 + timedelta(days=1))
    assert "Carolina is an architect" in graph_texts(before)
    assert "person:carolina" in {e.key for e in before.plan.entities}
    hop = next(f for f in before.facts if f.text == "Carolina is an architect")
    assert hop.hops == 1


async def test_events_and_observations_in_context(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Ana", "person")],
        facts=[StructuredFact("Ana was promoted to tech lead", "Ana")],
        events=[
            StructuredEvent(
                "Hey, just wanted to share that I got promoted to tech lead!",
                "Ana",
                occurred_at=datetime(2026, 3, 28, 9, tzinfo=UTC),
            ),
            StructuredEvent(
                "The weather was rainy all weekend.",
                "Ana",
                occurred_at=datetime(2026, 3, 20, 9, tzinfo=UTC),
            ),
        ],
    )
    vec = (await embedder.embed(["Ana often talks about her career growth"]))[0]
    await executor.run_text(
        load_query("read_create_observations"),
        {
            "agent_id": agent_id,
            "rows": [
                {
                    "id": str(uuid.uuid4()),
                    "text": "Ana often talks about her career growth",
                    "kind": "pattern",
                    "embedding": vec,
                }
            ],
        },
    )
    result = await Retriever(executor, embedder).retrieve(agent_id, "How is Ana's career going?")
    assert result.context.startswith("Known facts:\n- Ana was promoted to tech lead")
    assert "Observed patterns:\n- Ana often talks about her career growth" in result.context
    assert "Relevant conversations:\n- (2026-03-28) Ana: Hey, just wanted" in result.context
    assert result.events[0].text.startswith("Hey, just wanted")
    assert [o.text for o in result.observations] == ["Ana often talks about her career growth"]


async def test_aggregation_only_when_type_exists(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Clara", "person"), StructuredEntity("Rafael", "person")],
        facts=[
            StructuredFact("Clara is my best friend from school", "Clara"),
            StructuredFact("Rafael plays guitar in a band", "Rafael"),
        ],
        relations=[StructuredRelation("Clara", "Rafael", "knows")],
    )
    retriever = Retriever(executor, embedder)
    friends = await retriever.retrieve(agent_id, "who are my friends?")
    assert friends.plan.reason == "aggregation" and friends.plan.pattern_types == ("person",)
    assert {f.text for f in friends.facts} >= {
        "Clara is my best friend from school",
        "Rafael plays guitar in a band",
    }
    projects = await retriever.retrieve(agent_id, "list my projects")
    assert projects.plan.pattern_types == () and projects.plan.reason == "deterministic"


async def test_bad_input_is_typed(executor: Executor, embedder: Embedder) -> None:
    retriever = Retriever(executor, embedder)
    with pytest.raises(BadInput):
        await retriever.retrieve("", "where?")
    with pytest.raises(BadInput):
        await retriever.retrieve("a", None)  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        await retriever.retrieve("a", "where?", as_of="yesterday")  # type: ignore[arg-type]
    with pytest.raises(BadInput):
        await retriever.retrieve("a", "where?", options={"topk_facts": -1})


async def test_lucene_syntax_in_query_is_harmless(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[StructuredEntity("Ana", "person")],
        facts=[StructuredFact("Ana codes in C++ and Rust", "Ana")],
    )
    result = await Retriever(executor, embedder).retrieve(
        agent_id, 'Does Ana code in C++? title:"x" AND (foo OR bar~) \\ /regex/ *'
    )
    assert result.facts and result.facts[0].text == "Ana codes in C++ and Rust"


async def test_a_time_window_lifts_the_dated_snippets(
    executor: Executor, agent_id: str, embedder: Embedder
) -> None:
    day = datetime(2023, 7, 9, 14, tzinfo=UTC)
    await remember(
        executor,
        embedder,
        agent_id,
        events=[
            StructuredEvent("What did you paint for the exhibition?", "Caroline", occurred_at=day),
            StructuredEvent(
                "A sunrise over the lake, in orange and purple.",
                "Melanie",
                occurred_at=day + timedelta(seconds=1),
            ),
            StructuredEvent(
                "Painting the garage door took all weekend.",
                "Melanie",
                occurred_at=day + timedelta(days=40),
            ),
            StructuredEvent(
                "Unrelated: the bus was late again.",
                "Caroline",
                occurred_at=day + timedelta(days=90),
            ),
        ],
    )
    retriever = Retriever(executor, embedder)
    # "in August 2023" names the month of the garage-door turn: only that turn is lifted.
    query = "What did Melanie paint in August 2023?"
    # the formula's temporal weight (the learned ranker reads the window as a feature)
    formula = {"min_score": 0.0, "ranker": "formula"}
    dated = await retriever.retrieve(agent_id, query, options=formula)
    flat = await retriever.retrieve(
        agent_id, query, options={**formula, "weights": {"temporal": 0.0}}
    )
    assert dated.trace["plan"]["time_window"] == "in august 2023"
    lifted = {
        e.text[:12]: e.score - f.score for e in dated.events for f in flat.events if e.id == f.id
    }
    assert lifted.pop("Painting the") > 0.05
    assert all(abs(v) < 1e-9 for v in lifted.values())


@pytest.mark.parametrize("as_of", [None, T0 + timedelta(days=1)])
async def test_every_signal_in_one_round_trip_after_the_plan(
    executor: Executor, agent_id: str, embedder: Embedder, as_of: datetime | None
) -> None:
    """read/signals gathers every signal, events and observations in one round trip after
    the plan."""
    await remember(
        executor,
        embedder,
        agent_id,
        entities=MARCOS_ENTITIES,
        facts=[
            StructuredFact(f.text, f.subject, entities=f.entities, created_at=T0, valid_from=T0)
            for f in MARCOS_FACTS
        ],
        relations=MARCOS_RELATIONS,
        events=[
            StructuredEvent(
                "Marcos said Vertix is hiring product people", "Marcos Tavares", occurred_at=T0
            ),
            StructuredEvent(
                "Carolina finished the museum project",
                "Carolina",
                occurred_at=T0 + timedelta(hours=1),
            ),
        ],
    )
    vec = (await embedder.embed(["Marcos often talks about work"]))[0]
    await executor.run_text(
        load_query("read_create_observations"),
        {
            "agent_id": agent_id,
            "rows": [
                {
                    "id": str(uuid.uuid4()),
                    "text": "Marcos often talks about work",
                    "kind": "pattern",
                    "embedding": vec,
                }
            ],
        },
    )
    recording = RecordingExecutor(executor)
    retriever = Retriever(recording, embedder)
    base = {"activation_seeds": 0, "min_score": 0.0}
    for query in (
        "Tell me everything about Marcos Tavares",
        "Who works at Vertix?",
        "who are my friends?",
    ):
        recording.reset()
        one = await retriever.retrieve(agent_id, query, as_of=as_of, options=base)
        assert recording.names.count("read/signals") == 1
        assert set(recording.names) <= {
            "read/plan_catalog",
            "read/agent_counts",
            "read/signals",
            # the vector search form, read once per Retriever (its first retrieve)
            "schema/vector_search_form",
            "schema/vector_index_properties",
        }
        assert one.facts
