"""The ``hippograph remember`` file format as documented (``--help``, README): the example
``docs/examples/remember.jsonl`` is read record by record (the record type in ``record``, a
fact's own ``kind`` kept) and imported into a fresh agent; the older form, the record type in
``kind``, is still read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from graph.executor import Executor
from graph.memory.write import StructuredEntity, StructuredFact
from graph.providers import HashEmbedder
from server.cli import app
from server.cli.memory import REMEMBER_FORMAT, load_jsonl
from tests.integration.gql.support import memory_for

pytestmark = pytest.mark.neo4j

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "remember.jsonl"


def test_the_example_file_reads_as_documented() -> None:
    records = load_jsonl(EXAMPLE)
    assert {k: len(v) for k, v in records.items()} == {
        "entity": 2,
        "fact": 3,
        "relation": 1,
        "event": 1,
    }
    assert isinstance(records["entity"][0], StructuredEntity)
    assert records["entity"][0].type == "person"
    kinds = {f.text: f.kind for f in records["fact"]}
    assert kinds["Ana Souza prefers green tea to coffee"] == "preference"
    assert records["relation"][0].type == "works_at"
    help_text = CliRunner().invoke(app, ["remember", "--help"]).output
    assert '"record"' in help_text and "docs/examples/remember.jsonl" in help_text
    for field in ("entity", "fact", "relation", "event", "subject", "event_ids"):
        assert field in REMEMBER_FORMAT


def test_the_older_form_names_the_record_in_kind(tmp_path: Path) -> None:
    old = tmp_path / "old.jsonl"
    old.write_text(
        json.dumps({"kind": "fact", "text": "Ana Souza lives in Recife", "subject": "Ana Souza"})
        + "\n"
        + json.dumps({"kind": "entity", "name": "Recife", "type": "city"})
        + "\n",
        encoding="utf-8",
    )
    records = load_jsonl(old)
    assert [f.kind for f in records["fact"]] == ["fact"]
    assert [e.name for e in records["entity"]] == ["Recife"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"record": "note", "text": "x"}) + "\n", encoding="utf-8")
    with pytest.raises(typer.BadParameter, match="line 1: 'record' must be one of"):
        load_jsonl(bad)


async def test_the_example_file_imports(
    executor: Executor, agent_id: str, hash_embedder: HashEmbedder
) -> None:
    memory = memory_for(executor, hash_embedder)
    records = load_jsonl(EXAMPLE)
    done = await memory.admin.remember(
        agent_id,
        entities=records["entity"],
        facts=records["fact"],
        relations=records["relation"],
        events=records["event"],
    )
    assert done.complete and len(done.fact_ids) == 3 and not done.refused, done
    page = await memory.browse.facts(agent_id, kind="preference")
    assert [f.text for f in page.items] == ["Ana Souza prefers green tea to coffee"]
    assert isinstance(records["fact"][0], StructuredFact)
