"""OpenTelemetry traces: a write, a retrieve and a job run each give a span with a child span
per stage and the figures people debug by; no agent text rides on an error, and no span
carries an entity's name or key, a fact's or the model's text, or the agent id (a pseudonym
unless the operator asks for plain ids); with no provider installed nothing is recorded."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from graph import tracing
from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.jobs import Worker
from graph.memory.jobs.async_write import extract_handler, write_async
from graph.memory.read.retriever import Retriever
from graph.providers import Embedder
from server.settings import Settings
from server.tracing_setup import configure_tracing, stop_tracing
from tests.fakes import ScriptedLLM
from tests.integration.gql.support import memory_for
from tests.integration.jobs.test_async_write import deps_for

pytestmark = pytest.mark.neo4j

MESSAGE = "I moved to Lisbon in February and I work at Orion Tech."


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    yield exporter
    tracing.install(None)


def children(parent: ReadableSpan, every: tuple[ReadableSpan, ...]) -> list[ReadableSpan]:
    assert parent.context is not None
    return [s for s in every if s.parent is not None and s.parent.span_id == parent.context.span_id]


async def test_write_and_retrieve_have_a_span_per_stage(
    executor: Executor, embedder: Embedder, agent_id: str, spans: InMemorySpanExporter
) -> None:
    memory = memory_for(executor, embedder)
    await memory.writer.write(agent_id, MESSAGE, "Guilherme")
    await memory.retriever.retrieve(agent_id, "Where does Guilherme live?")
    done = spans.get_finished_spans()

    write = next(s for s in done if s.name == "write")
    assert write.attributes is not None
    assert write.attributes["hippograph.agent_id"] == tracing.agent_ref(agent_id) != agent_id
    assert write.attributes["hippograph.facts_added.count"] >= 1
    stages = [s.name for s in children(write, done)]
    assert {"write.guard", "write.event", "write.embedding", "write.commit"} <= set(stages), stages
    for stage in children(write, done):  # exact bounds inside the write's
        assert write.start_time <= stage.start_time <= stage.end_time <= write.end_time

    read = next(s for s in done if s.name == "retrieve")
    assert read.attributes is not None and read.attributes["hippograph.facts.count"] >= 1
    read_stages = {s.name for s in children(read, done)}
    assert {"retrieve.plan", "retrieve.signals", "retrieve.format"} <= read_stages, read_stages
    plan = next(s for s in children(read, done) if s.name == "retrieve.plan")
    assert plan.attributes is not None and "hippograph.reason" in plan.attributes


async def test_a_failed_call_is_marked_without_its_text(
    executor: Executor, embedder: Embedder, spans: InMemorySpanExporter
) -> None:
    memory = memory_for(executor, embedder)
    with pytest.raises(BadInput):
        await memory.retriever.retrieve("", "a secret question")
    (failed,) = [s for s in spans.get_finished_spans() if s.name == "retrieve"]
    assert failed.status.status_code.name == "ERROR" and failed.status.description == "BadInput"
    assert "secret" not in repr(dict(failed.attributes or {}))


async def test_spans_carry_no_entity_fact_or_model_text_nor_the_agent_id(
    executor: Executor, embedder: Embedder, agent_id: str, spans: InMemorySpanExporter
) -> None:
    memory = memory_for(executor, embedder)
    await memory.writer.write(agent_id, MESSAGE, "Guilherme")
    # The reranker answers memory text instead of scores: the trace keeps it as its detail.
    said = "Guilherme moved to Lisbon in February; he works at Orion Tech."
    retriever = Retriever(executor, embedder, ScriptedLLM(replies=[said]).chat())
    found = await retriever.retrieve(agent_id, "Where did Guilherme move in February?")
    plan, rerank = found.trace["plan"], found.trace["rerank"]
    assert any(key.startswith("person:guilherme") for key in plan["entities_sources"])
    assert rerank["status"] == "unparseable" and "Lisbon" in rerank["detail"]
    done = spans.get_finished_spans()
    assert {"write", "retrieve", "retrieve.plan", "retrieve.rerank"} <= {s.name for s in done}
    for span in done:
        shown = " ".join(f"{k}={v}" for k, v in (span.attributes or {}).items()).lower()
        for private in ("guilherme", "lisbon", "orion", "february", agent_id.lower()):
            assert private not in shown, (span.name, private, span.attributes)


async def test_a_job_run_is_a_span_around_its_write(
    executor: Executor, embedder: Embedder, agent_id: str, spans: InMemorySpanExporter
) -> None:
    deps = deps_for(executor, embedder)
    accepted = await write_async(executor, deps.queue, agent_id, MESSAGE, "Ana", embedder=embedder)
    worker = Worker(deps, {"extract": extract_handler}, agent_id=agent_id)
    assert await worker.run_until_idle() == 1
    done = spans.get_finished_spans()
    job = next(s for s in done if s.name == "job.extract")
    assert job.attributes is not None and job.attributes["hippograph.job.id"] == accepted.job_id
    assert any(s.name == "write" for s in children(job, done))


async def test_nothing_is_recorded_once_the_provider_is_taken_away(
    executor: Executor, embedder: Embedder, agent_id: str, spans: InMemorySpanExporter
) -> None:
    retriever = memory_for(executor, embedder).retriever
    await retriever.retrieve(agent_id, "anything")
    assert [s.name for s in spans.get_finished_spans()][-1] == "retrieve"
    tracing.install(None)
    spans.clear()
    assert not tracing.enabled()
    await retriever.retrieve(agent_id, "anything")
    assert spans.get_finished_spans() == ()


class Collector(BaseHTTPRequestHandler):
    """A stand-in OTLP/HTTP collector: keeps every POST's path, type and body."""

    received: ClassVar[list[tuple[str, str, bytes]]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.received.append((self.path, self.headers.get("Content-Type", ""), body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        return


async def test_a_configured_endpoint_receives_the_spans_over_otlp(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    collector = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{collector.server_address[1]}"
        provider = configure_tracing(Settings(otel_endpoint=url, otel_service="hg-test"))
        assert provider is not None and tracing.enabled()
        await memory_for(executor, embedder).retriever.retrieve(agent_id, "Where do I live?")
        stop_tracing(provider)  # flushes the batch
    finally:
        collector.shutdown()
    assert not tracing.enabled()
    assert configure_tracing(Settings(otel_endpoint=None)) is None
    (path, kind, body), *_ = Collector.received
    assert path == "/v1/traces" and kind == "application/x-protobuf"
    assert b"retrieve.plan" in body and b"hg-test" in body
    bodies = [sent for _, _, sent in Collector.received]
    assert any(tracing.agent_ref(agent_id).encode() in sent for sent in bodies)
    assert not any(agent_id.encode() in sent for sent in bodies)


async def test_the_operator_may_ask_for_plain_agent_ids(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    Collector.received.clear()
    collector = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=collector.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{collector.server_address[1]}"
        provider = configure_tracing(Settings(otel_endpoint=url, trace_plain_agent_ids=True))
        await memory_for(executor, embedder).retriever.retrieve(agent_id, "Where do I live?")
        stop_tracing(provider)
    finally:
        collector.shutdown()
    assert any(agent_id.encode() in body for _, _, body in Collector.received)
    assert not tracing.enabled()
    assert tracing.agent_ref(agent_id) != agent_id  # stopping restores pseudonyms
