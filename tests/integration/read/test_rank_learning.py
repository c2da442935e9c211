"""Learning the ranking from users, end to end on the real Neo4j: verdicts on retrieved facts
(through GraphQL `feedback`), a tenant's model trained from them changes that tenant's order,
a reset restores it, another tenant never sees it; too few verdicts are refused; erasing the
agent deletes its verdicts."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from gql.permissions import Principal
from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.facade import Memory
from graph.memory.learning import NotEnoughFeedback
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import Embedder
from graph.tenancy import claim_agents
from tests.cypher import load_query
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

FACTS = [
    "Ana drinks green tea every morning before work",
    "Ana drinks a strong espresso after lunch",
    "Ana's favourite drink on weekends is cold mate",
    "Ana drinks sparkling water at the gym",
    "Ana tried kombucha once and disliked it",
]
QUESTIONS = [
    "What does Ana drink?",
    "Which drinks does Ana like?",
    "What is Ana's drink of choice?",
    "Tell me about Ana and drinks",
    "What does Ana usually have to drink?",
    "Ana drinks",
]
FEEDBACK = """mutation F($agentId: ID!, $rid: String!, $fid: ID!, $helpful: Boolean!) {
  feedback(agentId: $agentId, retrieveId: $rid, factId: $fid, helpful: $helpful) {
    recorded labels rebuilt errors { code message }
  }
}"""
RETRIEVE = """query R($agentId: ID!, $q: String!) {
  retrieve(agentId: $agentId, query: $q, options: {topkFacts: 10, minScore: 0}) {
    retrieveId
    facts { id text scores { final ranker explanation { model raw bias contributions { feature contribution } } } }
  }
}"""


@pytest.fixture
async def tenant(executor: Executor, agent_id: str) -> AsyncIterator[str]:
    name = f"t-{uuid.uuid4().hex[:8]}"
    await claim_agents(executor, name, [agent_id])
    yield name
    await executor.run_text(load_query("delete_ranker_models"), {"tenant": name})


async def _load(executor: Executor, embedder: Embedder, agent_id: str) -> dict[str, str]:
    facts = [StructuredFact(text=t, subject="Ana Lima", id=str(uuid.uuid4())) for t in FACTS]
    await remember(
        executor, embedder, agent_id, entities=[StructuredEntity("Ana Lima", "person")], facts=facts
    )
    return {f.text: f.id for f in facts}


async def _order(
    memory: Memory, principal: Principal, agent_id: str, q: str
) -> tuple[str, list[dict]]:
    got = await gql(memory, RETRIEVE, {"agentId": agent_id, "q": q}, principal)
    assert got.errors is None, got.errors
    return got.data["retrieve"]["retrieveId"], got.data["retrieve"]["facts"]


async def test_feedback_trains_the_tenants_order_and_reset_restores_it(
    executor: Executor, embedder: Embedder, agent_id: str, tenant: str
) -> None:
    memory = memory_for(executor, embedder)
    memory.retriever.models.ttl_s = 0.0  # see a new version at once
    ids = await _load(executor, embedder, agent_id)
    principal = Principal(tenant=tenant, agents=frozenset({agent_id}))
    liked = ids["Ana tried kombucha once and disliked it"]
    before = {}
    for q in QUESTIONS:
        rid, facts = await _order(memory, principal, agent_id, q)
        before[q] = [f["id"] for f in facts]
        top = facts[0]["scores"]
        assert top["ranker"] == "LEARNED"
        parts = top["explanation"]
        assert parts["bias"] + sum(
            c["contribution"] for c in parts["contributions"]
        ) == pytest.approx(parts["raw"])
        for f in facts:
            verdict = {"agentId": agent_id, "rid": rid, "fid": f["id"], "helpful": f["id"] == liked}
            got = await gql(memory, FEEDBACK, verdict, principal)
            assert got.errors is None and got.data["feedback"]["errors"] == [], got
    assert got.data["feedback"]["labels"] == len(QUESTIONS) * len(FACTS)
    assert any(order[0] != liked for order in before.values())

    version, fitted = await memory.learning.train(tenant, min_labels=10)
    assert version == 1 and fitted.log_loss_after < fitted.log_loss_before
    for q in QUESTIONS:
        _, facts = await _order(memory, principal, agent_id, q)
        assert facts[0]["id"] == liked, q
        assert facts[0]["scores"]["explanation"]["model"] == f"tenant:{tenant}"
    state = await memory.learning.show(tenant)
    assert (state.version, state.labels, state.model.name) == (1, 30, f"tenant:{tenant}")

    assert await memory.learning.reset(tenant) == 2
    for q in QUESTIONS:
        _, facts = await _order(memory, principal, agent_id, q)
        assert [f["id"] for f in facts] == before[q], q
    assert [h["kind"] for h in (await memory.learning.show(tenant)).history] == ["reset", "trained"]


async def test_too_few_verdicts_are_refused_and_an_erase_deletes_them(
    executor: Executor, embedder: Embedder, agent_id: str, tenant: str
) -> None:
    memory = memory_for(executor, embedder)
    await _load(executor, embedder, agent_id)
    principal = Principal(tenant=tenant, agents=frozenset({agent_id}))
    rid, facts = await _order(memory, principal, agent_id, QUESTIONS[0])
    for f in facts[:2]:
        verdict = {"agentId": agent_id, "rid": rid, "fid": f["id"], "helpful": True}
        await gql(memory, FEEDBACK, verdict, principal)
    with pytest.raises(NotEnoughFeedback, match="2 verdicts"):
        await memory.learning.train(tenant)
    unknown = {
        "agentId": agent_id,
        "rid": "r1-000000000000",
        "fid": facts[0]["id"],
        "helpful": True,
    }
    got = await gql(memory, FEEDBACK, unknown, principal)
    assert got.data["feedback"]["errors"][0]["code"] == "NOT_FOUND"
    bad = {**unknown, "rid": "not an id"}
    got = await gql(memory, FEEDBACK, bad, principal)
    assert got.data["feedback"]["errors"][0]["code"] == "BAD_INPUT"
    await delete_agent(executor, agent_id)
    assert (await memory.learning.show(tenant)).labels == 0


async def test_a_verdict_on_a_retrieve_this_process_forgot_is_rebuilt_from_its_question(
    executor: Executor, embedder: Embedder, agent_id: str, tenant: str
) -> None:
    memory = memory_for(executor, embedder)
    await _load(executor, embedder, agent_id)
    principal = Principal(tenant=tenant, agents=frozenset({agent_id}))
    rid, facts = await _order(memory, principal, agent_id, QUESTIONS[0])
    other = memory_for(executor, embedder)  # another API process: it never served that retrieve
    receipt = await other.learning.feedback(
        tenant, agent_id, rid, facts[0]["id"], True, query=QUESTIONS[0]
    )
    assert receipt.rebuilt and receipt.labels == 1
