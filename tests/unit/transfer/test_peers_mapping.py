"""Mem0 and Graphiti mappings to structured ``remember`` input (no database)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graph.errors import BadInput
from graph.memory.transfer.graphiti import map_edge, map_entity, map_episode
from graph.memory.transfer.mem0 import map_mem0
from graph.memory.transfer.records import map_id

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "mem0_get_all.json"
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def test_mem0_export_maps_memories_relations_and_reports_the_rest() -> None:
    out = map_mem0(json.loads(FIXTURE.read_text()), "alex-agent")
    assert [f.text for f in out.facts] == [
        "Is a vegetarian and allergic to peanuts",
        "Works as a nurse at Saint Mary hospital",
        "Is travelling to Lisbon next week",
    ]
    veg, nurse, trip = out.facts
    assert veg.subject == "alex" and veg.categories == ["food"]
    assert veg.id == map_id("alex-agent", "mem0:f38b689d-6b24-45b7-bced-17fbb4d8bac7")
    assert veg.created_at == veg.valid_from == datetime(2025, 2, 11, 17, 12, 40, 118347, tzinfo=UTC)
    assert nurse.categories == ["professional_details"]
    assert nurse.valid_from == datetime(2025, 5, 20, 15, 5, 13, 500000, tzinfo=UTC)  # updated
    assert trip.temporal_class == "temporal"
    assert trip.valid_until == datetime(2025, 6, 15, tzinfo=UTC)
    assert [e.name for e in out.entities] == ["alex"]
    assert [(r.source, r.type, r.target) for r in out.relations] == [
        ("alex", "works_at", "saint_mary_hospital"),
        ("alex", "travelling_to", "lisbon"),
    ]
    report = out.report()
    assert report["mapped"] == {"entities": 1, "facts": 3, "relations": 2}
    assert report["skipped"] == [
        "memories[3]: no memory text",
        "relations[2]: needs source, relationship and target",
    ]
    assert report["not_mapped_fields"] == {
        "hash": 3,
        "metadata.source": 1,
        "metadata.session": 1,
        "run_id": 1,
    }


def test_mem0_v1_list_and_bad_documents() -> None:
    out = map_mem0(
        [
            {
                "id": "1",
                "memory": "Likes jazz",
                "agent_id": "bot",
                "created_at": "2024-07-25T23:57:00",
            }
        ],
        "a",
    )
    assert out.facts[0].subject == "bot" and out.facts[0].created_at == datetime(
        2024, 7, 25, 23, 57, tzinfo=UTC
    )
    with pytest.raises(BadInput, match="Mem0"):
        map_mem0({"data": []}, "a")
    with pytest.raises(BadInput, match="ISO 8601"):
        map_mem0([{"memory": "x", "created_at": "last week"}], "a")


def test_graphiti_entity_and_episode() -> None:
    ent = map_entity(
        {
            "uuid": "u",
            "name": "Alice",
            "labels": ["Entity", "Person"],
            "summary": "Alice is an engineer.",
        }
    )
    assert ent is not None and (ent.name, ent.type, ent.profile_text) == (
        "Alice",
        "person",
        "Alice is an engineer.",
    )
    assert map_entity({"uuid": "u", "name": " ", "labels": ["Entity"]}) is None
    assert map_entity({"uuid": "u", "name": "X", "labels": ["Entity"]}).type == "thing"  # type: ignore[union-attr]
    ev = map_episode(
        {
            "uuid": "e1",
            "content": "alice: I moved to Berlin",
            "source": "message",
            "source_description": "chat",
            "valid_at": T0,
            "group_id": "g",
        },
        "a",
    )
    assert ev is not None and (ev.speaker, ev.text, ev.occurred_at, ev.thread_id) == (
        "alice",
        "I moved to Berlin",
        T0,
        "g",
    )
    assert ev.id == map_id("a", "graphiti:e1")
    doc = map_episode(
        {"uuid": "e2", "content": "Note: x", "source": "text", "source_description": "notes"}, "a"
    )
    assert doc is not None and (doc.speaker, doc.text) == ("notes", "Note: x")
    assert map_episode({"uuid": "e3", "content": ""}, "a") is None


def _edge(**kw: object) -> dict[str, object]:
    return {
        "uuid": "r1",
        "source": "Alice",
        "target": "Acme",
        "name": "WORKS_AT",
        "fact": "Alice works at Acme",
        "episodes": ["e1", "e9"],
        "created_at": T0,
        "valid_at": T0,
        "invalid_at": None,
        "expired_at": None,
        **kw,
    }


def test_graphiti_valid_edge_is_a_fact_and_a_relationship() -> None:
    m = map_edge(_edge(), "a", {map_id("a", "graphiti:e1")})
    assert m.fact is not None and m.relation is not None and m.note is None
    assert (m.fact.text, m.fact.subject, m.fact.entities) == (
        "Alice works at Acme",
        "Alice",
        ["Acme"],
    )
    assert m.fact.valid_from == T0 and m.fact.valid_to is None
    assert m.fact.event_ids == [map_id("a", "graphiti:e1")]  # e9 was not imported
    assert (m.relation.source, m.relation.target, m.relation.type) == ("Alice", "Acme", "works_at")


def test_graphiti_closed_edges_keep_their_validity_as_fact_history() -> None:
    t1 = T0 + timedelta(days=30)
    closed = map_edge(_edge(invalid_at=t1, expired_at=t1 + timedelta(days=1)), "a", set())
    assert closed.fact is not None and closed.fact.valid_to == t1 and closed.relation is None
    assert closed.note and "closed" in closed.note
    expired = map_edge(_edge(expired_at=t1), "a", set())
    assert expired.fact is not None and expired.fact.valid_to == t1
    # learned later than it became valid: known from its valid time (as_of queries see it)
    late = map_edge(_edge(created_at=t1), "a", set())
    assert late.fact is not None and late.fact.created_at == T0
    empty = map_edge(_edge(fact=""), "a", set())
    assert empty.fact is None and empty.note
