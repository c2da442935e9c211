"""The worked example of docs/ontology.md, end to end on a real Neo4j: a customer-support
ontology applied from its file, messages written through GraphQL (a scripted LLM, then the
offline extractor), and the GraphQL answers typed by it: owners, tickets, the current plan
superseding the old one, undeclared relations mapped or refused, never stored as they came."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graph.executor import Executor
from graph.memory.ontology import parse_ontology_text
from graph.memory.ontology.service import define_ontology
from graph.providers import Embedder
from tests.fakes import ScriptedLLM
from tests.integration.gql.support import gql, memory_for
from tests.integration.write.helpers import extraction

pytestmark = pytest.mark.neo4j

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "support-ontology.yaml"
INFORMED = "Stage: extract_informed"
WRITE = """mutation($a: ID!, $m: String!) { write(agentId: $a, speakerName: "Maria Souza",
  message: $m) { outcome { success warnings } errors { code message } } }"""
ENTITY = """query($a: ID!, $k: String!) { entity(agentId: $a, key: $k) { key type
  relationships(includeInvalidated: true) { type direction otherKey validTo } } }"""
ENTITIES = """query($a: ID!, $t: String) { entities(agentId: $a, type: $t, first: 50) {
  edges { node { key type } } } }"""


async def _apply(executor: Executor, agent_id: str) -> None:
    """What `hippograph ontology apply docs/examples/support-ontology.yaml --agent A` does."""
    ontology = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))
    applied, _ = await define_ontology(executor, "agent", agent_id, ontology)
    assert applied.version == 1


async def _write(memory: Any, agent_id: str, message: str) -> list[str]:
    res = await gql(memory, WRITE, {"a": agent_id, "m": message})
    assert res.errors is None, res.errors
    payload = res.data["write"]
    assert payload["errors"] == [] and payload["outcome"]["success"], payload
    return payload["outcome"]["warnings"]


async def _relations(memory: Any, agent_id: str, key: str) -> set[tuple[str, str, bool]]:
    res = await gql(memory, ENTITY, {"a": agent_id, "k": key})
    assert res.errors is None, res.errors
    rels = res.data["entity"]["relationships"]
    return {
        (r["type"], r["otherKey"], r["validTo"] is None)
        for r in rels
        if r["direction"] == "OUTGOING"
    }


async def _forget(memory: Any, agent_id: str, text: str) -> None:
    facts = "query($a: ID!) { facts(agentId: $a, first: 50) { edges { node { id text } } } }"
    listed = (await gql(memory, facts, {"a": agent_id})).data["facts"]["edges"]
    fact_id = next(e["node"]["id"] for e in listed if e["node"]["text"] == text)
    forget = (
        """mutation($a: ID!, $f: ID!) { forget(agentId: $a, factId: $f) { errors { code } } }"""
    )
    assert (await gql(memory, forget, {"a": agent_id, "f": fact_id})).data["forget"]["errors"] == []


async def _types(memory: Any, agent_id: str) -> dict[str, str]:
    res = await gql(memory, ENTITIES, {"a": agent_id, "t": None})
    return {e["node"]["key"]: e["node"]["type"] for e in res.data["entities"]["edges"]}


async def test_the_support_example_with_an_llm(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await _apply(executor, agent_id)
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("Maria Souza", "client"), ("X200 headset", "device"), ("Pro plan", "plan")],
                    [
                        ("Maria Souza", "Maria Souza bought an X200 headset"),
                        ("Maria Souza", "Maria Souza is on the Pro plan"),
                        ("Maria Souza", "Maria Souza lives in Lisbon"),
                    ],
                    [
                        ("X200 headset", "owned_by", "Maria Souza"),  # the inverse: turned
                        ("Maria Souza", "subscribes_to", "Pro plan"),  # a stem of subscribed_to
                        ("Maria Souza", "lives_in", "Lisbon"),  # not in this domain
                        ("Maria Souza", "purchase_channel", "X200 headset"),  # undeclared
                    ],
                ),
                extraction(
                    [("Maria Souza", "customer"), ("Enterprise plan", "subscription")],
                    [("Maria Souza", "Maria Souza upgraded to the Enterprise plan")],
                    [("Maria Souza", "upgraded_to", "Enterprise plan")],  # an alias
                ),
                extraction(
                    [("TCK-1042", "ticket"), ("X200 headset", "product")],
                    [
                        (
                            "Maria Souza",
                            "Maria Souza opened ticket TCK-1042: the X200 stopped charging",
                        )
                    ],
                    [
                        ("Maria Souza", "opened", "TCK-1042"),
                        ("TCK-1042", "about", "X200 headset"),
                        ("TCK-1042", "owns", "X200 headset"),  # a ticket owns nothing
                    ],
                ),
            ]
        }
    )
    memory = memory_for(executor, embedder, llm.chat())
    first = await _write(
        memory, agent_id, "Hi, I bought an X200 headset and I'm on the Pro plan. I live in Lisbon."
    )
    prompt = llm.requests[0]["messages"]
    assert "Stage: ontology_rules" in prompt[0]["content"]
    assert '"name": "subscribed_to"' in prompt[1]["content"]  # the types, in the payload
    assert any("'lives_in' is not in ontology 'customer-support'; dropped" in w for w in first)
    assert any("'purchase_channel' is not in ontology" in w for w in first)
    await _write(memory, agent_id, "I upgraded to the Enterprise plan today.")
    third = await _write(memory, agent_id, "Ticket TCK-1042: my X200 headset stopped charging.")
    assert any("'owns' needs a source of type customer, got 'ticket'; dropped" in w for w in third)

    types = await _types(memory, agent_id)
    maria = next(k for k in types if k.endswith(":maria_souza"))
    # The speaker resolves by rule to a person; `owns` asks for a customer, a kind of person.
    assert types[maria] == "person"
    assert {types["product:x200_headset"], types["ticket:tck_1042"]} == {"product", "ticket"}
    assert types["subscription:pro_plan"] == types["subscription:enterprise_plan"] == "subscription"
    assert await _relations(memory, agent_id, maria) == {
        ("owns", "product:x200_headset", True),
        ("subscribed_to", "subscription:pro_plan", False),  # superseded by the new plan
        ("subscribed_to", "subscription:enterprise_plan", True),
        ("reported", "ticket:tck_1042", True),
    }
    assert await _relations(memory, agent_id, "ticket:tck_1042") == {
        ("about", "product:x200_headset", True)
    }
    stamped = await executor.run_text(
        "MATCH (f:Fact {agent_id: $a}) RETURN collect(DISTINCT f.ontology_version) AS v",
        {"a": agent_id},
    )
    assert stamped[0]["v"] == [1]
    # The answer said "owned_by"; one relationship holds both readings: retracting the fact
    # that evidences it closes it, seen from either end.
    await _forget(memory, agent_id, "Maria Souza bought an X200 headset")
    assert ("owns", "product:x200_headset", False) in await _relations(memory, agent_id, maria)
    product = await gql(memory, ENTITY, {"a": agent_id, "k": "product:x200_headset"})
    incoming = [r for r in product.data["entity"]["relationships"] if r["type"] == "owns"]
    assert [r["direction"] for r in incoming] == ["INCOMING"] and incoming[0]["validTo"]


async def test_the_support_example_offline(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    await _apply(executor, agent_id)
    memory = memory_for(executor, embedder)
    bought = await _write(memory, agent_id, "Maria Souza bought the X200 Headset.")
    assert any("'bought' is an alias of 'owns'" in w for w in bought)
    await _write(memory, agent_id, "I subscribed to the Pro Plan in March.")
    switched = await _write(memory, agent_id, "I switched to the Enterprise Plan today.")
    assert any("'switched_to' is an alias of 'subscribed_to'" in w for w in switched)
    await _write(memory, agent_id, "Maria Souza opened Ticket TCK-1042.")

    types = await _types(memory, agent_id)
    maria = next(k for k in types if k.endswith(":maria_souza"))
    rels = await _relations(memory, agent_id, maria)
    owned = {(t, k, live) for t, k, live in rels if t == "owns"}
    assert len(owned) == 1 and types[next(iter(owned))[1]] == "product"
    plans = {(k, live) for t, k, live in rels if t == "subscribed_to"}
    assert {types[k] for k, _ in plans} == {"subscription"}
    assert sorted(live for _, live in plans) == [False, True]  # Enterprise superseded Pro
    assert any(t == "reported" and types[k] == "ticket" for t, k, _ in rels)
    assert {t for t, _, _ in rels} <= {"owns", "subscribed_to", "reported"}


async def test_an_agent_without_an_ontology_keeps_every_type(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    memory = memory_for(executor, embedder)
    warnings = await _write(memory, agent_id, "Maria Souza moved to Lisbon.")
    assert not any(w.startswith("ontology:") for w in warnings)
    types = await _types(memory, agent_id)
    maria = next(k for k in types if k.endswith(":maria_souza"))
    assert ("lives_in", "place:lisbon", True) in await _relations(memory, agent_id, maria)
    stamped = await executor.run_text(
        "MATCH (f:Fact {agent_id: $a}) WHERE f.ontology_version IS NOT NULL RETURN count(f) AS n",
        {"a": agent_id},
    )
    assert stamped[0]["n"] == 0


async def test_reads_and_retrieve_filter_by_the_ontologys_types(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    await _apply(executor, agent_id)
    memory = memory_for(executor, hash_embedder)
    await _write(memory, agent_id, "Maria Souza bought the X200 Headset.")
    await _write(memory, agent_id, "I subscribed to the Pro Plan in March.")
    await _write(memory, agent_id, "Maria Souza opened Ticket TCK-1042.")
    await _write(memory, agent_id, "The Pro Plan includes priority support for the X200 Headset.")
    products = await gql(memory, ENTITIES, {"a": agent_id, "t": "product"})
    listed = {e["node"]["type"] for e in products.data["entities"]["edges"]}
    assert listed == {"product", "subscription"}  # a subscription is a product
    facts = """query($a: ID!, $t: String) { facts(agentId: $a, entityType: $t, first: 20) {
      edges { node { text } } } }"""
    about_tickets = await gql(memory, facts, {"a": agent_id, "t": "ticket"})
    texts = [e["node"]["text"] for e in about_tickets.data["facts"]["edges"]]
    assert texts and all("Ticket" in t for t in texts)
    types = await _types(memory, agent_id)
    maria = next(k for k in types if k.endswith(":maria_souza"))
    around = """query($a: ID!, $k: String!, $r: [String!]) { neighborhood(agentId: $a, key: $k,
      relationTypes: $r) { nodes { id } edges { label } } }"""
    owned = (await gql(memory, around, {"a": agent_id, "k": maria, "r": ["owns"]})).data
    assert {e["label"] for e in owned["neighborhood"]["edges"]} == {"owns"}
    assert len(owned["neighborhood"]["nodes"]) == 2
    every = (await gql(memory, around, {"a": agent_id, "k": maria, "r": None})).data
    assert {e["label"] for e in every["neighborhood"]["edges"]} == {
        "owns", "subscribed_to", "reported",
    }  # fmt: skip
    ask = """query($a: ID!, $t: [String!]) { retrieve(agentId: $a, query: "What does Maria have?",
      entityTypes: $t) { facts { text subjectKey } } }"""
    ranked = (await gql(memory, ask, {"a": agent_id, "t": None})).data["retrieve"]["facts"]
    assert {f["subjectKey"].partition(":")[0] for f in ranked} >= {"person", "subscription"}
    products = (await gql(memory, ask, {"a": agent_id, "t": ["product"]})).data["retrieve"]
    kinds = {f["subjectKey"].partition(":")[0] for f in products["facts"]}
    assert kinds and kinds <= {"product", "subscription"}  # a plan is a product


REMEMBER = """mutation($a: ID!, $t: String!, $r: String!) { remember(agentId: $a,
  entities: [{name: "Maria Souza", type: "client"}, {name: "X200 headset", type: $t}],
  facts: [{text: "Maria Souza owns an X200 headset", subject: "Maria Souza"}],
  relations: [{source: "X200 headset", target: "Maria Souza", type: $r}]) {
  summary { entitiesCreated factsAdded relations } errors { code message } } }"""


async def test_remember_validates_against_the_ontology(
    executor: Executor, hash_embedder: Embedder, agent_id: str
) -> None:
    await _apply(executor, agent_id)
    memory = memory_for(executor, hash_embedder)
    refused = await gql(memory, REMEMBER, {"a": agent_id, "t": "spaceship", "r": "loves"})
    errors = refused.data["remember"]["errors"]
    assert errors[0]["code"] == "BAD_INPUT"
    assert "type 'spaceship' is not in ontology 'customer-support'" in errors[0]["message"]
    assert "relations[0]: type 'loves' is not in ontology" in errors[0]["message"]
    assert await _types(memory, agent_id) == {}  # nothing stored
    wrong_end = await gql(memory, REMEMBER, {"a": agent_id, "t": "ticket", "r": "owned_by"})
    assert (
        "needs a target of type product, got 'ticket'"
        in (wrong_end.data["remember"]["errors"][0]["message"])
    )
    stored = await gql(memory, REMEMBER, {"a": agent_id, "t": "device", "r": "owned_by"})
    assert stored.data["remember"]["errors"] == []
    assert stored.data["remember"]["summary"]["relations"] == 1
    types = await _types(memory, agent_id)
    assert set(types.values()) == {"customer", "product"}  # the aliases, as declared
    maria = next(k for k in types if k.endswith(":maria_souza"))
    assert await _relations(memory, agent_id, maria) == {("owns", "product:x200_headset", True)}


FIRST_VALUE = """name: tickets
entity_types: [ticket, product]
relation_types:
  - {name: about, source: ticket, target: product, single_valued: true, supersedes: false}
"""


async def test_a_single_valued_type_that_does_not_supersede_keeps_its_first_value(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    applied, _ = await define_ontology(
        executor, "agent", agent_id, parse_ontology_text(FIRST_VALUE)
    )
    assert applied.version == 1
    llm = ScriptedLLM(
        by_stage={
            INFORMED: [
                extraction(
                    [("TCK-7", "ticket"), ("X200 headset", "product")],
                    [("TCK-7", "Ticket TCK-7 is about the X200 headset")],
                    [("TCK-7", "about", "X200 headset")],
                ),
                extraction(
                    [("TCK-7", "ticket"), ("Y300 speaker", "product")],
                    [("TCK-7", "Ticket TCK-7 is about the Y300 speaker")],
                    [("TCK-7", "about", "Y300 speaker")],
                ),
            ]
        }
    )
    memory = memory_for(executor, embedder, llm.chat())
    await _write(memory, agent_id, "TCK-7 is about my X200 headset.")
    second = await _write(memory, agent_id, "TCK-7 is about the Y300 speaker, actually.")
    assert any(
        "about keeps its first value (ticket:tck_7 → product:x200_headset); "
        "product:y300_speaker refused" in w
        for w in second
    ), second
    assert await _relations(memory, agent_id, "ticket:tck_7") == {
        ("about", "product:x200_headset", True)
    }
    facts = "query($a: ID!) { facts(agentId: $a, first: 20) { edges { node { text } } } }"
    texts = {
        e["node"]["text"]
        for e in (await gql(memory, facts, {"a": agent_id})).data["facts"]["edges"]
    }
    assert "Ticket TCK-7 is about the Y300 speaker" in texts  # the fact is still stored


async def test_identifier_types_resolve_by_name_only(
    executor: Executor, embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    """ "Ticket TCK-1042" and "Ticket TCK-1043" score 0.979 with MiniLM (0.965 with e5): by
    similarity alone the second resolves to the first unless ticket is an identifier type."""
    memory = memory_for(executor, embedder)
    as_identifier = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8"))
    assert as_identifier.entity_type("ticket").identifier  # type: ignore[union-attr]
    plain = parse_ontology_text(EXAMPLE.read_text(encoding="utf-8").replace("identifier: true", ""))
    for agent, ontology in ((agent_id, as_identifier), (other_agent, plain)):
        await define_ontology(executor, "agent", agent, ontology)
        await _write(memory, agent, "Maria Souza opened Ticket TCK-1042.")
        await _write(memory, agent, "Maria Souza opened Ticket TCK-1043.")
    tickets = {k for k, t in (await _types(memory, agent_id)).items() if t == "ticket"}
    assert tickets == {"ticket:ticket_tck_1042", "ticket:ticket_tck_1043"}
    merged = {k for k, t in (await _types(memory, other_agent)).items() if t == "ticket"}
    assert len(merged) == 1  # the control: similar names resolve together
