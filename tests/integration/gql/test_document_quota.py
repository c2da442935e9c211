"""Document bytes are capped per API key and window (``document_quota_bytes`` per
``document_quota_window_s``), on GraphQL and MCP alike; the charge and the registration are
one transaction, and registering the same content again is free."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client

from gql.permissions import Principal
from graph.executor import Executor
from graph.memory.documents import document_progress, ingest_document
from graph.memory.jobs import DocumentConfig, JobDeps, JobQueue, JobsConfig, Worker, WorkerConfig
from graph.memory.write import WritePipeline
from graph.providers import HashEmbedder
from server.auth import ApiKeyStore
from server.composition import default_handlers
from server.mcp.build import Caller, build_mcp
from server.settings import Settings
from tests.cypher import load_query
from tests.integration.gql.support import gql, memory_for

pytestmark = pytest.mark.neo4j

INGEST = """mutation($a: ID!, $t: String!) { ingestDocument(agentId: $a, text: $t) {
  documentId created errors { code message } } }"""


@pytest.fixture
async def tenant(executor: Executor) -> AsyncIterator[str]:
    name = f"quota-{uuid.uuid4().hex[:8]}"
    yield name
    await executor.run_text(load_query("delete_keys_of_tenant"), {"tenant": name})


def _doc(n: int) -> str:
    return f"Document {n}. " + "Eve walks her dog in the park every morning. " * 13  # ~600 B


async def test_a_key_cannot_ingest_past_its_window(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, tenant: str
) -> None:
    store = ApiKeyStore(executor)
    key_a, _ = await store.create(tenant, [agent_id])
    key_b, _ = await store.create(tenant, [agent_id])
    memory = memory_for(executor, hash_embedder, settings=Settings(document_quota_bytes=1_000))
    as_a = Principal(tenant=tenant, agents=frozenset({agent_id}), key_id=key_a)
    as_b = Principal(tenant=tenant, agents=frozenset({agent_id}), key_id=key_b)

    async def ingest(text: str, who: Principal) -> dict[str, Any]:
        res = await gql(memory, INGEST, {"a": agent_id, "t": text}, principal=who)
        assert res.errors is None, res.errors
        return dict(res.data["ingestDocument"])

    first = await ingest(_doc(1), as_a)
    assert first["errors"] == [] and first["created"]
    refused = await ingest(_doc(2), as_a)
    assert refused["errors"][0]["code"] == "BAD_INPUT"
    assert "quota" in refused["errors"][0]["message"]
    again = await ingest(_doc(1), as_a)  # the same content: already registered, not charged
    assert again["errors"] == [] and again["documentId"] == first["documentId"]
    assert (await ingest(_doc(2), as_b))["errors"] == []  # another key has its own window

    # MCP: the same key, the same window
    async def resolve(_ctx: Any) -> Caller:
        return Caller(memory, as_a)

    async with Client(build_mcp(resolve)) as client:
        res = await client.call_tool("ingest_document", {"agent_id": agent_id, "text": _doc(3)})
    assert res.is_error
    assert json.loads(res.content[0].text)["error"]["code"] == "BAD_INPUT"


PAGE = (
    "Eve Martins lives in Porto. Her e-mail is eve.secret@example.com and her card is "
    "4111 1111 1111 1111. "
) * 6  # ~600 bytes


async def test_fetched_pages_are_redacted_and_charged_to_the_key(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, tenant: str
) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = PAGE.encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
            + str(len(body)).encode()
            + b"\r\nConnection: close\r\n\r\n"
            + body
        )
        await writer.drain()
        writer.close()

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = srv.sockets[0].getsockname()[1]
    key_id, _ = await ApiKeyStore(executor).create(tenant, [agent_id])
    cfg = JobsConfig(
        worker=WorkerConfig(poll_interval_s=0.05, reaper_interval_s=5.0),
        documents=DocumentConfig(allow_private_urls=True, quota_bytes=1_000, extract_chunks=False),
    )
    deps = JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=hash_embedder,
        config=cfg,
        writer=WritePipeline(executor, hash_embedder, None),
    )
    try:
        worker = Worker(deps, default_handlers(), agent_id=agent_id)
        first = await ingest_document(
            executor,
            deps.queue,
            agent_id,
            key_id=key_id,
            url=f"http://127.0.0.1:{port}/a",
            config=cfg.documents,
        )
        await worker.run_until_idle()
        second = await ingest_document(
            executor,
            deps.queue,
            agent_id,
            key_id=key_id,
            url=f"http://127.0.0.1:{port}/b",
            config=cfg.documents,
        )
        await worker.run_until_idle()
    finally:
        srv.close()
        await srv.wait_closed()
    done = await document_progress(executor, agent_id, first.document_id)
    failed = await document_progress(executor, agent_id, second.document_id)
    assert done.status == "chunked" and done.chunks >= 1
    assert failed.status == "failed"
    rows = await executor.run_text(
        load_query("agent_text_values"), {"agent_id": agent_id}, read=True
    )
    errors = [r["value"] for r in rows if r["label"] == "Document" and r["key"] == "error"]
    assert errors and all("quota" in e for e in errors), errors
    chunks = [r["value"] for r in rows if r["label"] == "Chunk" and r["key"] == "text"]
    assert chunks and all("4111" not in c and "eve.secret" not in c for c in chunks)
    assert "[REDACTED:email]" in chunks[0]


async def test_concurrent_ingests_cannot_overshoot_the_quota(
    executor: Executor, hash_embedder: HashEmbedder, agent_id: str, tenant: str
) -> None:
    key_id, _ = await ApiKeyStore(executor).create(tenant, [agent_id])
    memory = memory_for(executor, hash_embedder, settings=Settings(document_quota_bytes=1_000))
    results = await asyncio.gather(
        *(memory.documents.ingest(agent_id, text=_doc(i), key_id=key_id) for i in range(6)),
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(accepted) == 1, results  # each document is ~600 bytes of a 1,000-byte window
    assert all("quota" in str(r) for r in refused), refused
