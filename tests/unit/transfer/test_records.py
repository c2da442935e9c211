"""The export format's pure functions: header, datetime encoding, id mapping, record rewrite."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graph.errors import BadInput
from graph.memory.text import content_hash
from graph.memory.transfer.records import (
    ExportHeader,
    decode_props,
    encode_props,
    map_id,
    parse_header,
    remap_record,
)

T = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


def test_header_round_trips_and_refuses_other_files() -> None:
    line = ExportHeader("alice", "minilm", 384, T).to_json()
    header = parse_header(line)
    assert (header.agent_id, header.embedder, header.dimensions, header.exported_at) == (
        "alice",
        "minilm",
        384,
        T,
    )
    with pytest.raises(BadInput, match="header"):
        parse_header({"kind": "fact"})
    with pytest.raises(BadInput, match="version"):
        parse_header({**line, "version": 99})
    with pytest.raises(BadInput, match="embedder and dimensions"):
        parse_header({k: v for k, v in line.items() if k != "dimensions"})


def test_props_encode_and_decode_datetimes_and_drop_the_agent() -> None:
    props = {"agent_id": "a", "text": "x", "valid_from": T, "created_at": T, "embedding": [0.1]}
    encoded = encode_props(props)
    assert encoded == {
        "created_at": T.isoformat(),
        "embedding": [0.1],
        "text": "x",
        "valid_from": T.isoformat(),
    }
    assert "embedding" not in encode_props(props, embeddings=False)
    assert decode_props(encoded) == {k: v for k, v in props.items() if k != "agent_id"}
    assert decode_props({"valid_to": None, "n": 1}) == {"n": 1}
    with pytest.raises(BadInput, match="timezone"):
        decode_props({"valid_to": "2025-01-01T00:00:00"})
    with pytest.raises(BadInput, match="ISO 8601"):
        decode_props({"created_at": "yesterday"})


def test_an_aliases_lookup_key_names_its_agent_and_is_neither_exported_nor_imported() -> None:
    alias = {"agent_id": "a", "norm": "ana", "text": "Ana", "agent_norm": "1:a:ana"}
    assert encode_props(alias) == {"norm": "ana", "text": "Ana"}
    # a file naming another agent's key must not plant it: the importer sets its own
    assert decode_props({"norm": "ana", "agent_norm": "1:b:ana"}) == {"norm": "ana"}


def test_ids_map_per_agent_deterministically() -> None:
    assert map_id("b", "f1") == map_id("b", "f1")
    assert map_id("b", "f1") != map_id("c", "f1") != map_id("b", "f2")
    assert map_id("b", None) is None


def test_fact_record_is_rewritten_for_the_new_agent() -> None:
    record = {
        "kind": "fact",
        "id": "f1",
        "about": [{"key": "person:ana", "primary": True}],
        "from_events": ["e1"],
        "props": {
            "text": "Ana likes tea",
            "subject_key": "person:ana",
            "normalized": "ana likes tea",
            "content_hash": "old",
            "created_at": T.isoformat(),
        },
    }
    row = remap_record(record, "bob")
    assert row["id"] == map_id("bob", "f1") == row["props"]["id"]
    assert row["props"]["content_hash"] == content_hash("bob", "person:ana", "ana likes tea")
    assert row["props"]["created_at"] == T
    assert row["about"] == [{"key": "person:ana", "primary": True}]
    assert row["from_events"] == [map_id("bob", "e1")]


def test_links_relations_and_chunks_map_every_id_they_hold() -> None:
    link = remap_record(
        {
            "kind": "fact_link",
            "id": "f2",
            "supersedes": ["f1"],
            "causes": [{"id": "f3", "props": {"strength": 0.5}}],
        },
        "b",
    )
    assert link["supersedes"] == [map_id("b", "f1")]
    assert link["causes"] == [{"id": map_id("b", "f3"), "props": {"strength": 0.5}}]
    rel = remap_record(
        {
            "kind": "relation",
            "id": "r1",
            "source": "person:a",
            "target": "org:x",
            "props": {
                "type": "works_at",
                "evidence_fact_id": "f1",
                "evidence_fact_ids": ["f0", "f1"],
            },
        },
        "b",
    )
    assert rel["props"]["evidence_fact_id"] == map_id("b", "f1") and rel["source"] == "person:a"
    # Every supporting fact, not only the newest: the cascade keeps a relationship open while
    # one of them is active.
    assert rel["props"]["evidence_fact_ids"] == [map_id("b", "f0"), map_id("b", "f1")]
    chunk = remap_record({"kind": "chunk", "id": "c1", "document_id": "d1", "props": {}}, "b")
    assert chunk["props"]["document_id"] == map_id("b", "d1") == chunk["document_id"]
    entity = remap_record({"kind": "entity", "key": "person:a", "props": {"name": "A"}}, "b")
    assert entity == {"key": "person:a", "props": {"name": "A", "key": "person:a"}}


def test_malformed_records_are_bad_input() -> None:
    with pytest.raises(BadInput, match="unknown record kind"):
        remap_record({"kind": "job"}, "b")
    with pytest.raises(BadInput, match="'id'"):
        remap_record({"kind": "fact", "props": {}}, "b")
    with pytest.raises(BadInput, match="'target'"):
        remap_record({"kind": "relation", "id": "r", "source": "x"}, "b")
