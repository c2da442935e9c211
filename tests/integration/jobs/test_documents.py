"""Document ingest as jobs: a markdown file of more than three write batches of chunks is
chunked, embedded and extracted per chunk by 4 workers with progress; a small HTML document
goes through the real write pipeline and its facts come back from the read pipeline."""

from __future__ import annotations

import asyncio
import hashlib
import re
from typing import Any

import pytest

from graph.agent_deletion import delete_agent
from graph.executor import Executor
from graph.memory.documents import (
    chunk_text,
    document_progress,
    ingest_document,
    parse_document,
    search_chunks,
)
from graph.memory.documents import ingest as ingest_module
from graph.memory.documents.fetch import UrlRefused
from graph.memory.jobs import (
    DocumentConfig,
    Job,
    JobDeps,
    JobQueue,
    JobsConfig,
    Worker,
    WorkerConfig,
)
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredFact, WritePipeline
from graph.memory.write.models import FactChange, WriteResult
from graph.providers import Embedder, HashEmbedder
from server.composition import default_handlers
from tests.cypher import load_query
from tests.integration.jobs.markdown_gen import make_markdown

pytestmark = pytest.mark.neo4j


class SentenceFacts(WritePipeline):
    """A light, deterministic stand-in for the write pipeline (hundreds of chunks through the
    real offline pipeline take minutes on a 2-core machine): each sentence becomes a fact
    via structured ``remember``, with ids derived from the idempotency key (re-runs are no-ops).
    """

    def __init__(self, executor: Executor, embedder: Embedder) -> None:
        super().__init__(executor, embedder, None)
        self.calls = 0

    async def write(
        self,
        agent_id: str,
        message: str,
        speaker_name: str,  # type: ignore[override]
        *,
        idempotency_key: str | None = None,
        thread_id: str | None = None,
        fence: Any = None,
        config_overrides: dict[str, Any] | None = None,
    ) -> WriteResult:
        self.calls += 1
        sentences = [
            s.strip()
            for s in re.split(r"(?<=[.!?])\s+", message)
            if len(s.strip()) >= 10 and not s.lstrip().startswith("#")
        ][:20]
        base = idempotency_key or message
        facts = [
            StructuredFact(
                s,
                subject=speaker_name,
                confidence=0.8,
                id=hashlib.sha256(f"{agent_id}|{base}|{i}".encode()).hexdigest(),
            )
            for i, s in enumerate(sentences)
        ]
        done = await remember(self.executor, self.embedder, agent_id, facts=facts)
        return WriteResult(
            success=True,
            facts_added=[
                FactChange(i, f.text, speaker_name, "ADD")
                for i, f in zip(done.fact_ids, facts, strict=True)
            ],
        )


def fast_config(**docs: Any) -> JobsConfig:
    return JobsConfig(
        worker=WorkerConfig(poll_interval_s=0.05, reaper_interval_s=5.0),
        documents=DocumentConfig(**docs),
    )


async def test_a_markdown_document_of_many_chunks_ingests_as_jobs_with_progress(
    executor: Executor, agent_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedder = HashEmbedder(384)  # MiniLM would spend minutes on hundreds of chunks here
    # 40 kB in chunks of 400 characters, written 40 chunks at a time (the ingest's batches are
    # larger; their size is all that differs): several write batches, each embedded and
    # reporting progress before it is stored.
    monkeypatch.setattr(ingest_module, "_WRITE_BATCH", 40)
    text = make_markdown(40_000)
    cfg = fast_config(chunk_chars=400, chunk_overlap=40)
    pipeline = SentenceFacts(executor, embedder)
    deps = JobDeps(
        executor=executor, queue=JobQueue(executor), embedder=embedder, config=cfg, writer=pipeline
    )
    accepted = await ingest_document(
        executor,
        deps.queue,
        agent_id,
        text=text,
        fmt="markdown",
        source="chronicle.md",
        config=cfg.documents,
    )
    again = await ingest_document(
        executor, deps.queue, agent_id, text=text, fmt="markdown", config=cfg.documents
    )
    assert again.document_id == accepted.document_id and not again.created
    assert again.job_id == accepted.job_id  # deduplicated while pending
    before = await document_progress(executor, agent_id, accepted.document_id)
    assert before.status == "pending" and before.fraction == 0.0

    seen: list[float] = []

    def on_progress(job: Job, fraction: float) -> None:
        if job.kind == "document_ingest":
            seen.append(fraction)

    handlers = {
        k: h for k, h in default_handlers().items() if k in ("document_ingest", "chunk_extract")
    }
    workers = [Worker(deps, handlers, agent_id=agent_id, on_progress=on_progress) for _ in range(4)]
    tasks = [asyncio.create_task(w.run()) for w in workers]
    fractions: list[float] = []
    try:
        for _ in range(3_000):
            progress = await document_progress(executor, agent_id, accepted.document_id)
            fractions.append(progress.fraction)
            if progress.complete:
                break
            await asyncio.sleep(0.2)
    finally:
        await asyncio.gather(*(w.stop() for w in workers))
        await asyncio.gather(*tasks)
    assert progress.complete, progress
    expected = chunk_text(parse_document(text, "markdown").text, 400, 40)
    assert progress.status == "chunked" and progress.title == "Team Chronicle"
    assert progress.chunks == len(expected) > 3 * 40
    assert progress.extract == {"done": len(expected)}
    assert pipeline.calls == len(expected)  # each chunk extracted exactly once
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 5  # progress reported
    assert fractions == sorted(fractions)
    # chunks are retrievable by embedding, and the chunk's facts exist
    probe = expected[123].text
    hits = await search_chunks(executor, agent_id, (await embedder.embed([probe]))[0], 1)
    assert hits[0]["ord"] == 123 and hits[0]["score"] > 0.99
    sentence = next(s for s in re.split(r"(?<=[.!?])\s+", probe) if " enjoys " in s)
    facts = await executor.run_text(
        load_query("consolidation_agent_facts"), {"agent_id": agent_id}, read=True
    )
    assert any(f["text"] == sentence.strip() for f in facts)


HTML_DOC = """<html><head><title>Clara's notes</title><script>track()</script></head><body>
<h1>About Clara</h1>
<p>Clara Rezende lives in Porto and works at Acme as a software engineer.</p>
<p>Clara Rezende loves hiking in the mountains every weekend.</p>
</body></html>"""


async def test_html_document_facts_are_retrievable_through_the_real_pipelines(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    cfg = fast_config()
    deps = JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=embedder,
        config=cfg,
        writer=WritePipeline(executor, embedder, None),
    )
    accepted = await ingest_document(
        executor, deps.queue, agent_id, text=HTML_DOC, fmt="html", config=cfg.documents
    )
    worker = Worker(deps, default_handlers(), agent_id=agent_id)
    assert await worker.run_until_idle() == 2  # ingest + one chunk
    progress = await document_progress(executor, agent_id, accepted.document_id)
    assert progress.complete and progress.title == "Clara's notes" and progress.chunks == 1
    chunk = await search_chunks(executor, agent_id, (await embedder.embed(["hiking"]))[0], 1)
    assert "track()" not in chunk[0]["text"] and "hiking" in chunk[0]["text"]
    result = await Retriever(executor, embedder).retrieve(agent_id, "Where does Clara live?")
    assert any("Porto" in f.text for f in result.facts), result.context
    # the same document again: same document, no new jobs, no duplicate facts
    facts_before = await executor.run_text(
        load_query("consolidation_agent_facts"), {"agent_id": agent_id}, read=True
    )
    again = await ingest_document(executor, deps.queue, agent_id, text=HTML_DOC, fmt="html")
    assert again.document_id == accepted.document_id
    await worker.run_until_idle()
    facts_after = await executor.run_text(
        load_query("consolidation_agent_facts"), {"agent_id": agent_id}, read=True
    )
    assert [f["id"] for f in facts_after] == [f["id"] for f in facts_before]


async def test_url_ingest_refuses_loopback_unless_allowed(
    executor: Executor, agent_id: str
) -> None:
    queue = JobQueue(executor)
    with pytest.raises(UrlRefused):
        await ingest_document(executor, queue, agent_id, url="http://127.0.0.1:1/doc")
    assert await queue.list_jobs(agent_id=agent_id) == []
    allowed = await ingest_document(
        executor,
        queue,
        agent_id,
        url="http://127.0.0.1:1/doc",
        config=DocumentConfig(allow_private_urls=True),
    )
    assert allowed.job_id  # accepted; the worker fetches later (under the same guard)


async def test_offline_document_chunks_relate_names_to_common_noun_phrases(
    executor: Executor, embedder: Embedder, agent_id: str
) -> None:
    """Chunk extraction sets the write option ``offline_noun_phrase_ends``: in a document a
    description ("an American country singer") is a relation end; in a conversation it is not
    (the option's default)."""
    text = "Sammi Smith is an American country singer. Sammi Smith recorded Help Me Make It."
    cfg = fast_config()
    deps = JobDeps(
        executor=executor,
        queue=JobQueue(executor),
        embedder=embedder,
        config=cfg,
        writer=WritePipeline(executor, embedder, None),
    )
    await ingest_document(
        executor,
        deps.queue,
        agent_id,
        text=text,
        fmt="text",
        title="Sammi Smith",
        config=cfg.documents,
    )
    assert await Worker(deps, default_handlers(), agent_id=agent_id).run_until_idle() == 2
    names = {
        r["name"]
        for r in await executor.run_text(
            load_query("drill_entities"), {"agent_id": agent_id}, read=True
        )
    }
    assert "american country singer" in names
    other = f"{agent_id}-chat"
    try:
        await WritePipeline(executor, embedder, None).write(other, text, "Sammi Smith")
        names = {
            r["name"]
            for r in await executor.run_text(
                load_query("drill_entities"), {"agent_id": other}, read=True
            )
        }
        assert "sammi smith" in names and "american country singer" not in names
    finally:
        await delete_agent(executor, other)
