"""retrieve's type focus on a real Neo4j, through GraphQL: a boost lifts the facts about an
entity type (or that state a relation type) over others without dropping any, the
relation-type filter keeps the facts relationships of those types name as evidence, unknown
types give an empty result (a filter) or change nothing (a boost), and a retrieve without type
arguments costs no ontology read."""

from __future__ import annotations

from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.read.focus import BOOST
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder
from tests.fakes import RecordingExecutor
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

ASK = """query($a: ID!, $q: String!, $e: [String!], $r: [String!], $be: [String!],
  $br: [String!], $o: RetrieveOptions) { retrieve(agentId: $a, query: $q, entityTypes: $e,
  relationTypes: $r, boost: {entityTypes: $be, relationTypes: $br}, options: $o) {
  facts { id score subjectKey } } }"""
QUESTION = "Why did the X200 headset stop charging?"
# (id, text, subject, another entity named)
FACTS = (
    ("maria-charging", "Maria Souza says her X200 headset stopped charging", "Maria Souza",
     "X200 headset"),
    ("ticket-charging", "TCK-1042: a headset that no longer charges", "TCK-1042", "X200 headset"),
    ("maria-owns", "Maria Souza owns an X200 headset", "Maria Souza", "X200 headset"),
    ("maria-lisbon", "Maria Souza lives in Lisbon", "Maria Souza", "Lisbon"),
)  # fmt: skip
EXTRA = {"ontology/in_force", "read/stated_relations"}  # what type arguments may cost


async def _story(executor: Executor, embedder: Embedder, agent_id: str) -> None:
    await remember(
        executor,
        embedder,
        agent_id,
        entities=[
            StructuredEntity(name="Maria Souza", type="person"),
            StructuredEntity(name="TCK-1042", type="ticket"),
            StructuredEntity(name="X200 headset", type="product"),
            StructuredEntity(name="Lisbon", type="place"),
        ],
        facts=[
            StructuredFact(id=fid, text=text, subject=subject, entities=[other])
            for fid, text, subject, other in FACTS
        ],
        relations=[
            StructuredRelation(
                "Maria Souza", "X200 headset", "owns", evidence_fact_id="maria-owns"
            ),
            StructuredRelation(
                "Maria Souza", "Lisbon", "lives_in", evidence_fact_id="maria-lisbon"
            ),
        ],
    )


@pytest.fixture
async def memory(executor: Executor, hash_embedder: Embedder, agent_id: str) -> Any:
    """The API's services over an agent holding the story of ``FACTS``."""
    await _story(executor, hash_embedder, agent_id)
    return memory_for(executor, hash_embedder)


async def _ask(memory: Any, agent_id: str, **types: Any) -> list[dict[str, Any]]:
    variables = {"a": agent_id, "q": QUESTION, **{k: None for k in ("e", "r", "be", "br", "o")}}
    res = await gql(memory, ASK, {**variables, **types})
    assert res.errors is None, res.errors
    return [{**f, "id": f["id"].rsplit(":", 1)[-1]} for f in res.data["retrieve"]["facts"]]


@pytest.mark.parametrize("ranker", ["formula", "learned"])
async def test_a_boost_lifts_the_ticket_fact_and_keeps_the_others(
    memory: Any, agent_id: str, ranker: str
) -> None:
    """The boost multiplies a fact's score by ``BOOST`` under either ranker; the formula's
    scores sit close enough for it to put the ticket's fact first, the learned ranker's
    calibrated chances can sit further apart than ``BOOST`` bridges: it never moves down."""
    o = {"ranker": ranker.upper()}
    plain = await _ask(memory, agent_id, o=o)
    ids = [f["id"] for f in plain]
    assert ids.index("maria-charging") < ids.index("ticket-charging"), plain
    boosted = await _ask(memory, agent_id, be=["ticket"], o=o)
    order = [f["id"] for f in boosted]
    assert sorted(order) == sorted(ids)  # nothing dropped
    assert order.index("ticket-charging") <= ids.index("ticket-charging"), boosted
    if ranker == "formula":
        assert order[0] == "ticket-charging", boosted
    before = next(f["score"] for f in plain if f["id"] == "ticket-charging")
    after = next(f["score"] for f in boosted if f["id"] == "ticket-charging")
    assert after == pytest.approx(before * BOOST, rel=1e-3)
    owns = await _ask(memory, agent_id, br=["owns"], o=o)
    lifted = [f["id"] for f in owns]
    assert lifted.index("maria-owns") <= ids.index("maria-owns") and len(owns) == len(plain)
    if ranker == "formula":
        assert lifted.index("maria-owns") < ids.index("maria-owns"), owns
    was = next(f["score"] for f in plain if f["id"] == "maria-owns")
    now = next(f["score"] for f in owns if f["id"] == "maria-owns")
    assert now == pytest.approx(was * BOOST, rel=1e-3)


async def test_the_relation_type_filter_keeps_the_facts_that_state_one(
    memory: Any, agent_id: str
) -> None:
    assert [f["id"] for f in await _ask(memory, agent_id, r=["owns"])] == ["maria-owns"]
    both = await _ask(memory, agent_id, r=["owns", "lives_in"])
    assert {f["id"] for f in both} == {"maria-owns", "maria-lisbon"}
    assert await _ask(memory, agent_id, r=["owns"], e=["ticket"]) == []  # both filters hold


async def test_unknown_types_give_an_empty_result_or_change_nothing(
    memory: Any, agent_id: str
) -> None:
    plain = await _ask(memory, agent_id)
    assert await _ask(memory, agent_id, e=["spaceship"]) == []
    assert await _ask(memory, agent_id, r=["teleported_to"]) == []
    unchanged = await _ask(memory, agent_id, be=["spaceship"], br=["teleported_to"])
    assert [f["id"] for f in unchanged] == [f["id"] for f in plain]


async def test_only_the_arguments_given_cost_a_read(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    await _story(executor, hash_embedder, agent_id)
    recording = RecordingExecutor(executor)
    memory = memory_for(recording, hash_embedder)
    costs = {}
    for name, types in (
        ("plain", {}),
        ("relation", {"br": ["owns"]}),
        ("entity", {"be": ["ticket"]}),
    ):
        memory.ontologies.forget()
        recording.reset()
        await _ask(memory, agent_id, **types)
        costs[name] = {n for n in recording.statements if n in EXTRA}
    assert costs == {
        "plain": set(),
        "relation": {"read/stated_relations"},
        "entity": {"ontology/in_force"},
    }
