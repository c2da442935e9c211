"""Enums end to end: values go in and come out as enum names, bad values are rejected by
GraphQL validation before any resolver runs (nothing is written)."""

from __future__ import annotations

import pytest

from graph.memory.facade import Memory
from tests.integration.gql.support import gql

pytestmark = pytest.mark.neo4j

REMEMBER = """mutation($a: ID!, $kind: FactKind!) { remember(agentId: $a,
  facts: [{text: "Rui prefers green tea", subject: "Rui", kind: $kind}]) {
  summary { factsAdded } errors { code } } }"""


async def test_enum_values_round_trip(services: Memory, agent_id: str) -> None:
    done = await gql(services, REMEMBER, {"a": agent_id, "kind": "PREFERENCE"})
    assert done.errors is None and done.data["remember"]["summary"]["factsAdded"] == 1
    facts = await gql(
        services,
        """query($a: ID!) {
        prefs: facts(agentId: $a, kind: PREFERENCE) { edges { node { kind text } } }
        plain: facts(agentId: $a, kind: FACT) { edges { node { kind } } } }""",
        {"a": agent_id},
    )
    assert facts.errors is None
    assert [e["node"] for e in facts.data["prefs"]["edges"]] == [
        {"kind": "PREFERENCE", "text": "Rui prefers green tea"}
    ]
    assert facts.data["plain"]["edges"] == []

    wrote = await gql(
        services,
        """mutation($a: ID!) { write(agentId: $a,
        message: "I moved to Lisbon last year", speakerName: "Rui") {
        outcome { mode factsAdded { action } } errors { code } } }""",
        {"a": agent_id},
    )
    outcome = wrote.data["write"]["outcome"]
    assert outcome["mode"] == "FULL"
    assert {c["action"] for c in outcome["factsAdded"]} <= {"ADD"}

    audit = await gql(
        services,
        """query($a: ID!) { auditLog(agentId: $a, action: ADD) {
        action mode } }""",
        {"a": agent_id},
    )
    assert audit.errors is None
    assert {(r["action"], r["mode"]) for r in audit.data["auditLog"]} <= {("ADD", "FULL")}

    found = await gql(
        services,
        """query($a: ID!) { retrieve(agentId: $a,
        query: "What does Rui prefer to drink?") { plan { strategy } facts { kind sources tier } }
        }""",
        {"a": agent_id},
    )
    assert found.errors is None
    assert found.data["retrieve"]["plan"]["strategy"] == "MULTI_SIGNAL"
    hits = found.data["retrieve"]["facts"]
    assert "PREFERENCE" in {h["kind"] for h in hits}
    assert {h["tier"] for h in hits} <= {"HOT", "WARM", None}
    assert all(h["sources"] for h in hits)
    assert {s for h in hits for s in h["sources"]} <= {
        "SEMANTIC",
        "KEYWORD",
        "GRAPH",
        "ACTIVATION",
        "PATTERN",
    }


@pytest.mark.parametrize(
    ("document", "variables", "expected"),
    [
        # the pipeline's own string is not an enum literal
        ('query($a: ID!) { jobs(agentId: $a, status: "pending") { id } }', {}, "JobStatus"),
        ("query($a: ID!) { auditLog(agentId: $a, action: ADDED) { id } }", {}, "WriteAction"),
        (REMEMBER, {"kind": "relationship"}, "FactKind"),
        (
            """mutation($a: ID!) { remember(agentId: $a, facts: [{text: "Rui likes tea",
        subject: "Rui", kind: HOBBY}]) { errors { code } } }""",
            {},
            "FactKind",
        ),
        (
            """mutation($a: ID!) { ingestDocument(agentId: $a, text: "x", format: PDF) {
        errors { code } } }""",
            {},
            "DocumentFormat",
        ),
    ],
)
async def test_bad_enum_values_are_validation_errors(
    services: Memory, agent_id: str, document: str, variables: dict[str, str], expected: str
) -> None:
    result = await gql(services, document, {"a": agent_id, **variables})
    assert result.data is None and result.errors
    assert expected in result.errors[0].message
    assert result.errors[0].extensions["code"] == "BAD_INPUT"
    nothing = await gql(
        services, "query($a: ID!) { facts(agentId: $a) { edges { cursor } } }", {"a": agent_id}
    )
    assert nothing.data["facts"]["edges"] == []
