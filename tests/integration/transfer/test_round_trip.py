"""Export an agent, import it into a fresh agent, and get the same ``retrieve`` answers (ids
mapped), now and in the past (``as_of``); re-import is idempotent; another model re-embeds."""

from __future__ import annotations

import asyncio
import io
import json
import stat
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.curation.edits import forget
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.spaces import embedder_name, recorded_space
from graph.memory.transfer import export_agent, export_lines, import_agent, map_id
from graph.memory.write import StructuredEntity, StructuredFact, WritePipeline
from graph.providers import Embedder, HashEmbedder
from server.cli import app
from tests.cypher import load_query
from tests.integration.read.data import (
    MARCOS_ENTITIES,
    MARCOS_FACTS,
    MARCOS_RELATIONS,
    remember_marcos,
)

pytestmark = pytest.mark.neo4j

T0 = datetime(2025, 1, 10, tzinfo=UTC)
T1 = datetime(2025, 6, 1, tzinfo=UTC)
QUERIES = [
    "Where does Marcos Tavares live?",
    "Who is Marcos Tavares married to?",
    "What does Bruno Almeida do?",
    "Tell me everything about Marcos Tavares",
    "Where does Ana work?",
    "What pet does Ana have?",
]
AS_OF = [T0 + timedelta(days=30), T1 + timedelta(days=1)]


async def _fill(executor: Executor, embedder: Embedder, agent: str) -> str:
    """Facts with a history (a superseded version, a forgotten fact), relations, aliases, and
    messages through the offline write pipeline (events, provenance)."""
    old_id = str(uuid.uuid4())
    await remember(
        executor,
        embedder,
        agent,
        entities=MARCOS_ENTITIES,
        facts=[
            StructuredFact(f.text, f.subject, entities=f.entities, created_at=T0, valid_from=T0)
            for f in MARCOS_FACTS
        ]
        + [
            StructuredFact(
                "Marcos Tavares lives in São Paulo",
                "Marcos Tavares",
                id=old_id,
                created_at=T0 - timedelta(days=5),
                valid_from=T0 - timedelta(days=5),
            )
        ],
        relations=MARCOS_RELATIONS,
    )
    await executor.run_text(
        load_query("read_close_fact"), {"agent_id": agent, "ids": [old_id], "at": T1}
    )
    writer = WritePipeline(executor, embedder, None)
    for text in [
        "I'm Ana and I work at Globex as a data engineer.",
        "My dog Biscuit is a beagle.",
        "Actually, I now work at Initech.",
    ]:
        await writer.write(agent, text, "Ana")
    await remember(
        executor,
        embedder,
        agent,
        entities=[StructuredEntity("Rex", "animal")],
        facts=[StructuredFact("Ana used to have a cat called Rex", "Ana", entities=["Rex"])],
    )
    gone = [
        r["id"]
        for r in await executor.run_text(
            load_query("transfer_fact_ids"), {"agent": agent, "text": "cat called Rex"}
        )
    ]
    await forget(executor, agent, gone[0], "no longer true")
    return old_id


async def _answers(
    retriever: Retriever,
    agent: str,
    mapping: dict[str, str] | None,
) -> list[Any]:
    out = []
    for query in QUERIES:
        for when in [None, *AS_OF]:
            r = await retriever.retrieve(
                agent, query, as_of=when, options={"enable_reranker": False}
            )
            ids = [f.id for f in r.facts]
            out.append(
                (
                    query,
                    when,
                    [mapping.get(i, i) for i in ids] if mapping else ids,
                    [f.text for f in r.facts],
                )
            )
    return out


async def _export(
    executor: Executor, agent: str, embedder: Embedder, page_size: int = 3
) -> list[dict[str, Any]]:
    """The export as the CLI and the download write it, each line parsed back."""
    return [
        json.loads(line)
        async for line in export_lines(executor, agent, embedder, page_size=page_size)
    ]


async def test_round_trip_gives_the_same_answers_now_and_as_of(
    executor: Executor, embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    old_id = await _fill(executor, embedder, agent_id)
    records = await _export(executor, agent_id, embedder)
    header = records[0]
    assert header["kind"] == "header" and header["embedder"] == embedder.name
    assert header["dimensions"] == embedder.dimensions
    kinds = {r["kind"] for r in records[1:]}
    assert {"entity", "alias", "event", "fact", "fact_link", "relation"} <= kinds
    facts = [r for r in records if r["kind"] == "fact"]
    assert any(f["props"].get("invalidated_at") for f in facts)  # closed versions travel too
    assert any(f["from_events"] for f in facts)

    result = await import_agent(executor, embedder, other_agent, records, batch_size=4)
    assert not result.reembedded
    assert result.written["fact"] == len(facts)
    assert await recorded_space(executor, other_agent) == embedder_name(embedder)

    retriever = Retriever(executor, embedder)
    back = {map_id(other_agent, f["id"]): f["id"] for f in facts}
    for _ in range(2):  # retrieve counts change scores a little: compare after the same reads
        imported = await _answers(retriever, other_agent, back)
        original = await _answers(retriever, agent_id, None)
    assert imported == original
    assert sum(bool(a[2]) for a in original) >= len(original) - 3  # answers, not empty lists
    past = next(a for a in original if a[1] == AS_OF[0] and a[0] == QUERIES[0])
    assert old_id in past[2]  # the superseded version answers in the past, after import too

    # the graph has the same shape: counts per label and relationship type
    shape = load_query("transfer_graph_shape")
    shapes = [await executor.run_text(shape, {"agent": a}) for a in (agent_id, other_agent)]
    assert shapes[0] == shapes[1], (shapes, [r for r in records if r["kind"] == "fact_link"])

    # the aliases' lookup key (entity resolution's prefix seek) names the importing agent
    keys = await executor.run_text(load_query("alias_keys"), {"agent_id": other_agent})
    assert keys and all(
        k["agent_norm"] == f"{len(other_agent)}:{other_agent}:{k['norm']}" for k in keys
    ), keys
    assert all("agent_norm" not in r["props"] for r in records if r["kind"] == "alias")

    # importing the same export again rewrites the same nodes
    await import_agent(executor, embedder, other_agent, records, batch_size=50)
    assert await executor.run_text(shape, {"agent": other_agent}) == shapes[1]


async def test_import_with_another_model_re_embeds(
    executor: Executor, embedder: Embedder, agent_id: str, other_agent: str
) -> None:
    await remember_marcos(executor, HashEmbedder(), agent_id)
    records = [
        r async for r in export_agent(executor, agent_id, embedder_name="hash", dimensions=384)
    ]
    assert records[0]["embedder"] == "hash"
    result = await import_agent(executor, embedder, other_agent, records)
    assert result.reembedded and result.source_embedder == "hash"
    assert await recorded_space(executor, other_agent) == embedder.name
    top = await Retriever(executor, embedder).retrieve(
        other_agent, "Where does Marcos Tavares live?", options={"enable_reranker": False}
    )
    assert top.facts[0].text == "Marcos Tavares lives in Porto Alegre"
    rows = await executor.run_text(load_query("transfer_fact_vectors"), {"agent": other_agent})
    fresh = await embedder.embed([r["text"] for r in rows])
    for row, vec in zip(rows, fresh, strict=True):
        assert row["v"] == pytest.approx(vec, abs=1e-5)


async def test_bad_exports_are_refused_with_nothing_written(
    executor: Executor, embedder: Embedder, other_agent: str
) -> None:
    with pytest.raises(BadInput, match="header"):
        await import_agent(executor, embedder, other_agent, [{"kind": "fact", "id": "x"}])
    header = {
        "kind": "header",
        "format": "hippograph-export",
        "version": 1,
        "embedder": embedder.name,
        "dimensions": embedder.dimensions,
    }
    with pytest.raises(BadInput, match="unknown record kind"):
        await import_agent(executor, embedder, other_agent, [header, {"kind": "widget"}])
    with pytest.raises(BadInput, match="export order"):
        await import_agent(
            executor,
            embedder,
            other_agent,
            [
                header,
                {"kind": "fact", "id": "f", "props": {"text": "x"}},
                {"kind": "entity", "key": "person:x", "props": {}},
            ],
        )
    rows = await executor.run_text(load_query("transfer_node_count"), {"agent": other_agent})
    assert rows[0]["n"] == 0


def test_cli_export_then_import(agent_id: str, other_agent: str, tmp_path: Path) -> None:
    runner = CliRunner()

    async def fill() -> None:
        from server.composition import build_memory
        from server.settings import get_settings

        mem = build_memory(get_settings())
        try:
            await remember(
                mem.executor,
                mem.embedder,
                agent_id,
                entities=MARCOS_ENTITIES,
                facts=MARCOS_FACTS,
                relations=MARCOS_RELATIONS,
            )
        finally:
            await mem.close()

    asyncio.run(fill())
    out = tmp_path / "a.jsonl"
    out.write_text("")
    out.chmod(0o644)  # a file already there, readable by everyone
    exported = runner.invoke(app, ["export", "--agent", agent_id, "--output", str(out)])
    assert exported.exit_code == 0, exported.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # a whole memory: the owner's only
    lines = [json.loads(x) for x in io.StringIO(out.read_text())]
    assert lines[0]["kind"] == "header" and sum(x["kind"] == "fact" for x in lines) == 7
    imported = runner.invoke(app, ["import", str(out), "--agent", other_agent])
    assert imported.exit_code == 0, imported.output
    report = json.loads(imported.stdout)
    assert report["written"]["fact"] == 7 and report["reembedded"] is False
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "fact"}\n')
    refused = runner.invoke(app, ["import", str(bad), "--agent", other_agent])
    assert refused.exit_code == 2 and "header" in refused.output
    assert "Traceback" not in refused.output
