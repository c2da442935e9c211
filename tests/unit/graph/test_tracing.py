"""What spans may carry: figures and the product's own words, never a user's entities, fact or
model text, and the agent id only as a pseudonym unless the operator asks for plain ids."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from graph import tracing

PERSONAL = ("clara", "rezende", "curitiba", "february", "vertix")
# A retrieve's trace as the retriever builds it (the verbose trace a caller may ask for).
RETRIEVE_TRACE: dict[str, Any] = {
    "plan": {
        "ms": 1.5,
        "reason": "deterministic",
        "time_window": "last February",
        "entities": ["person:clara_rezende", "organization:vertix"],
        "entities_sources": {"person:clara_rezende": "named", "organization:vertix": "expanded"},
    },
    "signals": {"ms": 4.0, "statement": "read/signals", "graph": {"rows": 3, "seeds": ["x"]}},
    "rerank": {
        "ms": 9.0,
        "status": "unparseable",
        "pool": 5,
        "tokens": 120,
        "detail": "Clara Rezende lives in Curitiba and works at Vertix",
    },
}


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    yield exporter
    tracing.install(None)


def _everything(attributes: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in attributes.items()).lower()


def test_stage_attributes_keep_figures_and_drop_names_and_text() -> None:
    for stage in RETRIEVE_TRACE.values():
        found = tracing.attributes(stage)
        text = _everything(found)
        assert not [word for word in PERSONAL if word in text], found
    plan = tracing.attributes(RETRIEVE_TRACE["plan"])
    assert plan["hippograph.reason"] == "deterministic" and plan["hippograph.ms"] == 1.5
    assert plan["hippograph.entities.count"] == 2
    assert plan["hippograph.entities_sources.count"] == 2
    rerank = tracing.attributes(RETRIEVE_TRACE["rerank"])
    assert rerank["hippograph.status"] == "unparseable" and rerank["hippograph.tokens"] == 120
    assert "hippograph.detail" not in rerank
    signals = tracing.attributes(RETRIEVE_TRACE["signals"])
    assert signals["hippograph.statement"] == "read/signals"
    assert signals["hippograph.graph.rows"] == 3


def test_retrieve_stage_spans_carry_no_entity_key_or_model_text(
    spans: InMemorySpanExporter,
) -> None:
    with tracing.tracer().start_as_current_span("retrieve"):
        tracing.record_retrieve_stages(RETRIEVE_TRACE, 0)
    stages = [s for s in spans.get_finished_spans() if s.name.startswith("retrieve.")]
    assert {s.name for s in stages} == {"retrieve.plan", "retrieve.signals", "retrieve.rerank"}
    for span in stages:
        text = _everything(dict(span.attributes or {}))
        assert not [word for word in PERSONAL if word in text], span.attributes


class Pipeline:
    @tracing.traced("retrieve")
    async def retrieve(self, agent_id: str, query: str) -> Any:
        return SimpleNamespace(facts=[1, 2])


async def test_the_agent_id_is_a_pseudonym_unless_plain_ids_are_asked_for(
    spans: InMemorySpanExporter,
) -> None:
    agent = "clara.rezende@example.com"
    await Pipeline().retrieve(agent, "where?")
    (span,) = spans.get_finished_spans()
    shown = (span.attributes or {})["hippograph.agent_id"]
    assert shown == "sha256:" + hashlib.sha256(agent.encode()).hexdigest()[:16]
    assert "clara" not in _everything(dict(span.attributes or {}))

    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(spans))
    tracing.install(provider, plain_agent_ids=True)
    spans.clear()
    await Pipeline().retrieve(agent, "where?")
    (span,) = spans.get_finished_spans()
    assert (span.attributes or {})["hippograph.agent_id"] == agent
    tracing.install(None)
    assert tracing.agent_ref(agent).startswith("sha256:")  # the default again


class Worker:
    @tracing.traced_job
    async def execute(self, job: Any) -> None:
        return None


async def test_a_job_span_names_its_agent_by_pseudonym(spans: InMemorySpanExporter) -> None:
    job = SimpleNamespace(id="job-1", kind="extract", agent_id="clara-rezende", attempts=1)
    await Worker().execute(job)
    (span,) = spans.get_finished_spans()
    attributes = dict(span.attributes or {})
    assert attributes["hippograph.job.id"] == "job-1"
    assert attributes["hippograph.job.kind"] == "extract"
    assert attributes["hippograph.job.agent_id"] == tracing.agent_ref("clara-rezende")
    assert "clara" not in _everything(attributes)
