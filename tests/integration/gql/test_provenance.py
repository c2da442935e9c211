"""Why a fact is there, through the API: its evidence messages (as stored, after the PII
policy), the relationships it supports, the hop path that reached a retrieved fact, and what
the calling key grants (``viewer``)."""

from __future__ import annotations

import pytest

from gql.permissions import Principal
from graph.memory.facade import Memory
from tests.integration.gql.support import gql

pytestmark = pytest.mark.neo4j

WRITE = """mutation($a: ID!, $m: String!) { write(agentId: $a, speakerName: "Marina",
  message: $m) { outcome { success eventId } errors { code message } } }"""

FACTS = """query($a: ID!) { facts(agentId: $a, first: 50) { edges { node {
  id text evidence { id text speaker }
  cascades { type sourceKey targetKey evidenceFactId active } } } } }"""


async def test_a_fact_shows_its_message_and_the_relations_it_supports(
    services: Memory, agent_id: str
) -> None:
    message = "I work at Orion Tech now. Write to me at marina.k@example.com."
    wrote = (await gql(services, WRITE, {"a": agent_id, "m": message})).data["write"]
    assert wrote["errors"] == [] and wrote["outcome"]["success"], wrote
    nodes = [
        e["node"] for e in (await gql(services, FACTS, {"a": agent_id})).data["facts"]["edges"]
    ]
    work = next(n for n in nodes if "Orion Tech" in n["text"])
    [evidence] = work["evidence"]
    assert evidence["id"] == wrote["outcome"]["eventId"] and evidence["speaker"] == "Marina"
    assert "Orion Tech" in evidence["text"]
    assert "marina.k@example.com" not in evidence["text"]  # stored redacted: shown redacted
    assert [c["type"] for c in work["cascades"]] == ["works_at"], work
    assert work["cascades"][0]["active"] and work["cascades"][0]["evidenceFactId"] == work["id"]

    # Forgetting the fact ends the relation it alone supported; the fact still lists it.
    forgot = await gql(
        services,
        """mutation($a: ID!, $f: ID!) { forget(agentId: $a, factId: $f)
        { invalidatedRelationships errors { code } } }""",
        {"a": agent_id, "f": work["id"]},
    )
    assert len(forgot.data["forget"]["invalidatedRelationships"]) == 1
    history = await gql(
        services,
        "query($a: ID!, $f: ID!) { factHistory(agentId: $a, id: $f) { cascades { active } } }",
        {"a": agent_id, "f": work["id"]},
    )
    assert history.data["factHistory"][0]["cascades"] == [{"active": False}]


async def test_another_agents_fact_shows_no_evidence(services: Memory, agent_id: str) -> None:
    wrote = (await gql(services, WRITE, {"a": agent_id, "m": "I work at Orion Tech now."})).data
    assert wrote["write"]["errors"] == []
    facts = (await gql(services, FACTS, {"a": agent_id})).data["facts"]["edges"]
    fact_id = facts[0]["node"]["id"]
    # A key for another agent asking about this fact id through its own agent finds no fact.
    other = Principal(tenant="t-other", agents=frozenset({f"{agent_id}-x"}))
    res = await gql(
        services,
        "query($a: ID!, $f: ID!) { factHistory(agentId: $a, id: $f) { evidence { text } } }",
        {"a": f"{agent_id}-x", "f": fact_id},
        principal=other,
    )
    assert res.data is None and res.errors[0].extensions["code"] == "NOT_FOUND"


async def test_a_retrieved_fact_shows_the_hop_path_that_reached_it(
    services: Memory, agent_id: str, story: dict[str, str]
) -> None:
    res = await gql(
        services,
        """query($a: ID!) { retrieve(agentId: $a, query: "Where does Clara Rezende work?",
        options: {maxHops: 2}) { totalCandidates facts { text hops
        hopPath { key name via forward } } } }""",
        {"a": agent_id},
    )
    assert res.errors is None, res.errors
    r = res.data["retrieve"]
    assert r["totalCandidates"] >= len(r["facts"]) > 0
    by_text = {f["text"]: f for f in r["facts"]}
    own = by_text["Clara Rezende works at Vertix as a data engineer"]
    assert own["hops"] == 0 and own["hopPath"] == [
        {"key": story["Clara Rezende"], "name": "Clara Rezende", "via": None, "forward": True}
    ]
    # Vertix's office is one relation away from Clara (works_at), or through Curitiba.
    office = by_text["Vertix has its office in Curitiba"]
    assert office["hops"] == 1, office
    path = office["hopPath"]
    assert path[0]["key"] == story["Clara Rezende"] and len(path) == 2
    assert path[1]["via"] in ("works_at", "lives_in") and path[1]["forward"] is True
    for fact in r["facts"]:
        if fact["hops"] is None:
            assert fact["hopPath"] is None


async def test_viewer_says_what_the_key_grants(services: Memory, agent_id: str) -> None:
    query = "{ viewer { admin allAgents agents } }"
    admin = await gql(services, query)
    assert admin.data["viewer"] == {"admin": True, "allAgents": True, "agents": []}
    scoped = Principal(tenant="t1", agents=frozenset({agent_id, "b"}))
    res = await gql(services, query, principal=scoped)
    assert res.data["viewer"] == {
        "admin": False,
        "allAgents": False,
        "agents": sorted({agent_id, "b"}),
    }
