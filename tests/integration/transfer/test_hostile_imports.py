"""Hostile import files: a record of the wrong shape, JSON nested past the parser's depth, an
over-long line, a Mem0 document too big to map whole. Each is refused with a typed error naming
the line, before anything is written (over HTTP and from the CLI)."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import server.transfer_routes as routes
from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.providers import HashEmbedder
from server.app import create_app
from server.cli import app as cli
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import http_client, load_story, memory_for

pytestmark = pytest.mark.neo4j

ADMIN_KEY = "hostile-import-admin-key-0123456789abcdef"
ADMIN = {"Authorization": f"Bearer {ADMIN_KEY}"}


@pytest.fixture
async def target(executor: Executor) -> AsyncIterator[str]:
    agent = f"test-{uuid.uuid4().hex[:12]}"
    yield agent
    await delete_agent(executor, agent)


async def _nodes(executor: Executor, agent_id: str) -> int:
    rows = await executor.run_text(load_query("agent_counts"), {"agent_id": agent_id}, read=True)
    return sum(int(r["nodes"]) for r in rows)


def _spoiled(lines: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    """Copies of an export with its last fact (or fact link) of the wrong shape."""
    last_fact = max(i for i, x in enumerate(lines) if x["kind"] == "fact")
    out: dict[str, list[dict[str, object]]] = {}
    for name, change in {
        "props": {"props": "abc"},
        "about": {"about": ["k"]},
        "nested_prop": {"props": {"text": {"a": 1}}},
        "id": {"id": 7},
    }.items():
        copy = [dict(x) for x in lines]
        copy[last_fact] = {**copy[last_fact], **change}
        out[name] = copy
    link = {"kind": "fact_link", "id": lines[last_fact]["id"], "causes": [{}]}
    out["causes"] = [*lines[: last_fact + 1], link, *lines[last_fact + 1 :]]
    return out


def _body(lines: list[dict[str, object]]) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


async def test_a_malformed_record_is_refused_naming_its_line_and_nothing_is_written(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, target: str
) -> None:
    await load_story(executor, hash_embedder, agent_id)
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=0, admin_api_key=ADMIN_KEY),
        memory=memory_for(executor, hash_embedder),
    )
    async with http_client(app) as client:
        exported = await client.get("/export", params={"agent": agent_id}, headers=ADMIN)
        lines = [json.loads(x) for x in exported.text.splitlines()]
        for name, spoiled in _spoiled(lines).items():
            bad_line = next(
                i + 1 for i, (a, b) in enumerate(zip(spoiled, [*lines, {}], strict=False)) if a != b
            )
            r = await client.post(
                "/import", params={"agent": target}, content=_body(spoiled), headers=ADMIN
            )
            assert r.status_code == 400, (name, r.text)
            error = r.json()["errors"][0]
            assert error["extensions"]["code"] == "BAD_INPUT", name
            assert f"line {bad_line}:" in error["message"], (name, error["message"])
            assert await _nodes(executor, target) == 0, name  # the entities before: not written

        deep = _body(lines[:1]) + b'{"kind": "entity", "props": ' + b"[" * 100_000 + b"\n"
        r = await client.post("/import", params={"agent": target}, content=deep, headers=ADMIN)
        assert r.status_code == 400 and "line 2: JSON nested too deeply" in r.text, r.text

        # Sent in thousands of small chunks: spooled as it comes, then read line by line.
        async def trickle() -> AsyncIterator[bytes]:
            body = _body(lines)
            for start in range(0, len(body), 64):
                yield body[start : start + 64]

        ok = await client.post(
            "/import", params={"agent": target}, content=trickle(), headers=ADMIN
        )
        assert ok.status_code == 200, ok.text
        assert ok.json()["written"]["fact"] == 3


async def test_an_over_long_line_is_refused_naming_it(
    executor: Executor,
    hash_embedder: HashEmbedder,
    target: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(routes, "MAX_LINE_BYTES", 1_000)
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=0, admin_api_key=ADMIN_KEY),
        memory=memory_for(executor, hash_embedder),
    )
    header = {"kind": "header", "format": "hippograph-export", "version": 1, "agent_id": "x",
              "embedder": "hash", "dimensions": 384}  # fmt: skip
    body = _body([header]) + b'{"kind": "entity", "key": "' + b"a" * 5_000 + b'"}\n'
    async with http_client(app) as client:
        r = await client.post("/import", params={"agent": target}, content=body, headers=ADMIN)
    assert r.status_code == 400 and "line 2: longer than 1000 bytes" in r.text, r.text


async def test_a_mem0_document_is_capped_before_it_is_parsed(
    executor: Executor,
    hash_embedder: HashEmbedder,
    target: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(routes, "MEM0_MAX_BYTES", 10_000)
    app = create_app(
        Settings(auth_disabled=False, rate_limit_per_minute=0, admin_api_key=ADMIN_KEY),
        memory=memory_for(executor, hash_embedder),
    )
    big = json.dumps({"results": [{"memory": "x" * 100, "user_id": "u"}] * 200}).encode()
    deep = b"[" * 9_000  # under the cap, past the parser's depth
    async with http_client(app) as client:
        r = await client.post(
            "/import", params={"agent": target, "format": "mem0"}, content=big, headers=ADMIN
        )
        assert r.status_code == 413, r.text
        assert r.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"
        nested = await client.post(
            "/import", params={"agent": target, "format": "mem0"}, content=deep, headers=ADMIN
        )
        assert nested.status_code == 400 and "nested too deeply" in nested.text, nested.text
    assert await _nodes(executor, target) == 0


def test_the_cli_checks_the_whole_file_before_writing(
    tmp_path: Path, target: str, executor: Executor
) -> None:
    header = {"kind": "header", "format": "hippograph-export", "version": 1, "agent_id": "x",
              "embedder": "hash", "dimensions": 384}  # fmt: skip
    entities = [
        {"kind": "entity", "key": f"person:p{i}", "props": {"name": f"P{i}", "type": "person"}}
        for i in range(3)
    ]
    bad = {"kind": "fact", "id": "f1", "props": {"text": "x"}, "about": ["person:p0"]}
    path = tmp_path / "bad.jsonl"
    path.write_bytes(_body([header, *entities, bad]))
    out = CliRunner().invoke(cli, ["import", str(path), "--agent", target, "--batch-size", "1"])
    assert out.exit_code == 2, out.output
    assert "line 5:" in out.output and "'about'" in out.output and "Traceback" not in out.output


def test_the_cli_refuses_a_mem0_file_nested_too_deeply(tmp_path: Path, target: str) -> None:
    path = tmp_path / "deep.json"
    path.write_bytes(b"[" * 100_000)
    out = CliRunner().invoke(cli, ["import", "--from", "mem0", str(path), "--agent", target])
    assert out.exit_code == 2, out.output
    assert "nested too deeply" in out.output and "Traceback" not in out.output
