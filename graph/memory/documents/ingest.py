"""Document ingest as jobs: register → (fetch) → parse → chunk → embed → extract per chunk.

``ingest_document`` only validates and registers the document, then enqueues a
``document_ingest`` job; the worker fetches (URL documents, under the guard of
:mod:`graph.memory.documents.fetch`), parses, chunks with overlap, embeds the chunks (reporting
progress), stores ``(:Document)-[:HAS_CHUNK]->(:Chunk)`` and enqueues one ``chunk_extract`` job
per chunk, which runs the write pipeline on the chunk text. Every step is idempotent (ids are
derived from the document and chunk positions), so a crashed job simply runs again.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from graph.errors import BadInput, FencedOut
from graph.executor import Executor, Transaction
from graph.memory.documents.fetch import UrlRefused, check_url, fetch_url
from graph.memory.documents.parse import Chunk, chunk_text, detect_format, parse_document
from graph.memory.documents.quota import charge_bytes, charge_fetched
from graph.memory.jobs.context import (
    JobContext,
    JobFailed,
    LeaseLost,
    PermanentJobError,
    extraction_failed,
)
from graph.memory.jobs.jobs_config import DocumentConfig
from graph.memory.jobs.queue import JobQueue, JobSpec
from graph.memory.spaces import claim_space, embedder_name
from graph.memory.text import idempotency_digest, join_parts
from graph.memory.write.guard import redact_text
from graph.memory.write.models import PIIRejected
from graph.providers.base import Embedder

__all__ = [
    "DocumentAccepted",
    "chunk_extract_handler",
    "document_ingest_handler",
    "ingest_document",
]

_NS = uuid.UUID("9d7e4a0b-3c61-4f4e-a8f5-2d1b7c6e5f30")
_EMBED_BATCH = 64
_WRITE_BATCH = 200


@dataclass(frozen=True)
class DocumentAccepted:
    document_id: str
    job_id: str
    created: bool  # False: the same content was already registered for this agent


def _redacted(text: str | None, mode: str, what: str) -> str | None:
    return None if text is None else redact_text(text, mode, what).text


def check_url_privacy(url: str, mode: str) -> None:
    """A URL is fetched as given, so it cannot be redacted: under a PII policy other than
    ``off``, one carrying credentials (``user:password@``) or a clear PII span (an e-mail, a
    key, a token...) is refused rather than stored with the document and its job (pure).

    Raises:
        BadInput: the URL carries credentials or personal data.
    """
    if mode == "off":
        return
    try:
        parts = urlsplit(url)
        credentials = bool(parts.username or parts.password)
    except ValueError:
        credentials = False  # check_url refuses a malformed URL with its own message
    if credentials or redact_text(url, "redact").findings:
        raise BadInput(
            "the document URL carries credentials or personal data, which would be "
            "stored with the document; fetch the page yourself and send its text"
        )


def _doc_id(agent_id: str, *basis: str) -> str:
    return str(uuid.uuid5(_NS, join_parts(agent_id, *basis)))


def chunk_id(document_id: str, ord_: int) -> str:
    return str(uuid.uuid5(_NS, f"{document_id}#{ord_}"))


async def ingest_document(
    executor: Executor,
    queue: JobQueue,
    agent_id: str,
    *,
    text: str | None = None,
    url: str | None = None,
    title: str | None = None,
    fmt: str | None = None,
    source: str | None = None,
    config: DocumentConfig | None = None,
    pii_mode: str = "redact",
    key_id: str | None = None,
) -> DocumentAccepted:
    """Register a document (raw ``text`` or a ``url``) and enqueue its ingest job.

    The operator's ``pii_mode`` applies to what is stored: the raw text and the title are
    redacted (or refused) here, a fetched page's text by the ingest job, before chunking. A
    text document's bytes are charged to ``key_id``'s quota (``DocumentConfig.quota_bytes``
    per ``quota_window_s``) in the transaction that registers it; a URL document's when the
    job has fetched it.

    Raises:
        BadInput: neither/both of text and url, empty or oversized text, unknown format.
        DocumentQuotaExceeded: the key's document bytes for the window are used up.
        PIIRejected: ``pii_mode="reject"`` and the text or title holds PII.
        UrlRefused: the URL is refused up front (scheme, private address unless allowed).
        BadInput: the URL carries credentials or personal data (see check_url_privacy).
    """
    cfg = config or DocumentConfig()
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    if (text is None) == (url is None):
        raise BadInput("give exactly one of text or url")
    if fmt is not None and fmt not in ("text", "markdown", "html"):
        raise BadInput(f"unknown document format {fmt!r} (text, markdown, html)")
    if text is not None:
        if not text.strip():
            raise BadInput("the document is empty")
        size = len(text.encode("utf-8"))
        if size > cfg.max_bytes:
            raise BadInput(f"the document has {size} bytes; the limit is {cfg.max_bytes}")
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        doc_id = _doc_id(agent_id, "text", digest)
        # Up to document_max_bytes of text: the PII scan runs off the event loop.
        raw = (await asyncio.to_thread(redact_text, text, pii_mode, "the document")).text
        props: dict[str, Any] = {
            "title": _redacted(title, pii_mode, "the title"),
            "source": source or "upload",
            "format": fmt,
            "raw_content": raw,
            "quota_charged": key_id is not None,
        }
    else:
        assert url is not None
        check_url_privacy(url, pii_mode)
        # Refuse obviously bad targets now (cheap, no request sent); the worker checks again.
        await check_url(url, allow_private=cfg.allow_private_urls)
        doc_id = str(uuid.uuid4())
        size = 0
        props = {
            "title": _redacted(title, pii_mode, "the title"),
            "source": source or url,
            "format": fmt,
            "url": url,
            "quota_key": key_id,
        }

    async def register(tx: Transaction) -> list[dict[str, Any]]:
        if text is not None:
            await charge_bytes(tx, cfg, key_id, doc_id, size)
        return await tx.run("documents/create_document", agent_id=agent_id, id=doc_id, props=props)

    rows = await executor.write(register)
    queued = await queue.enqueue(JobSpec(kind="document_ingest", agent_id=agent_id, subject=doc_id))
    return DocumentAccepted(doc_id, queued.job_id, bool(rows and rows[0]["created"]))


async def document_ingest_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``document_ingest`` (subject: the document id)."""
    deps, agent_id, doc_id = ctx.deps, ctx.job.agent_id, ctx.job.subject or ""
    cfg = deps.config.documents
    if deps.embedder is None:
        raise JobFailed("document ingest needs an embedder")
    embedder = deps.embedder
    rows = await deps.executor.run(
        "documents/get_document", {"agent_id": agent_id, "id": doc_id}, read=True
    )
    if not rows:
        raise PermanentJobError(f"document {doc_id} not found")
    doc = rows[0]["document"]
    if doc.get("status") == "chunked":  # finished before a crash: only re-enqueue extraction
        return await _enqueue_extraction(ctx, doc_id, int(doc.get("chunk_count") or 0))
    raw, content_type = await _document_content(ctx, doc)
    if not raw:
        raise PermanentJobError(f"document {doc_id} has no content")
    fmt = doc.get("format") or detect_format(content_type, doc.get("url") or doc.get("source"), raw)
    # Parsing and chunking up to document_max_bytes of text run off the event loop.
    parsed = await asyncio.to_thread(parse_document, raw, fmt, title=doc.get("title"))
    # What is stored (chunks, title) and what chunk_extract sends to the LLM is redacted
    # under the operator's policy; a fetched page is seen here for the first time.
    pii_mode = deps.writer.config.pii_mode if deps.writer is not None else "redact"
    try:
        body = await asyncio.to_thread(redact_text, parsed.text, pii_mode, "the document")
        title = redact_text(parsed.title, pii_mode, "the title").text
    except PIIRejected as exc:
        await deps.executor.run(
            "documents/set_status",
            {"agent_id": agent_id, "id": doc_id, "status": "failed", "error": str(exc)},
        )
        raise PermanentJobError(str(exc)) from exc
    parsed = replace(parsed, text=body.text, title=title)
    chunks = await asyncio.to_thread(chunk_text, parsed.text, cfg.chunk_chars, cfg.chunk_overlap)
    await ctx.progress(0.05, force=True)

    async def claim(tx: Transaction) -> None:  # chunk vectors: the agent's model or none
        await claim_space(tx, agent_id, embedder_name(embedder))

    await deps.executor.write(claim)
    await _write_chunks(ctx, embedder, doc_id, chunks)
    await deps.executor.run(
        "documents/finish_chunking",
        {
            "agent_id": agent_id,
            "id": doc_id,
            "props": {
                "title": parsed.title,
                "format": parsed.format,
                "chunk_count": len(chunks),
                "chars": len(parsed.text),
                "content_hash": hashlib.sha256(parsed.text.encode()).hexdigest()[:32],
            },
        },
    )
    return await _enqueue_extraction(ctx, doc_id, len(chunks))


async def _document_content(ctx: JobContext, doc: dict[str, Any]) -> tuple[Any, str | None]:
    """The document's text and its content type: as it was given, or fetched from its URL
    (the fetched bytes charged to the quota).

    Raises:
        PermanentJobError: the URL is refused (the document is marked failed).
    """
    deps, agent_id, doc_id = ctx.deps, ctx.job.agent_id, ctx.job.subject or ""
    cfg = deps.config.documents
    raw = doc.get("raw_content")
    if raw is not None or not doc.get("url"):
        return raw, None
    try:
        fetched = await fetch_url(
            doc["url"],
            max_bytes=cfg.max_bytes,
            content_types=cfg.content_types,
            allow_private=cfg.allow_private_urls,
            timeout_s=cfg.fetch_timeout_s,
        )
    except UrlRefused as exc:
        await deps.executor.run(
            "documents/set_status",
            {"agent_id": agent_id, "id": doc_id, "status": "failed", "error": str(exc)},
        )
        raise PermanentJobError(str(exc)) from exc
    await charge_fetched(ctx, doc, len(fetched.text.encode("utf-8")))
    return fetched.text, fetched.content_type


async def _write_chunks(
    ctx: JobContext, embedder: Embedder, doc_id: str, chunks: list[Chunk]
) -> None:
    """Embed and store the chunks in batches, reporting progress (5 % to 95 %)."""
    agent_id = ctx.job.agent_id
    for start in range(0, len(chunks), _WRITE_BATCH):
        batch = chunks[start : start + _WRITE_BATCH]
        vectors: list[list[float]] = []
        for e in range(0, len(batch), _EMBED_BATCH):
            vectors += await embedder.embed([c.text for c in batch[e : e + _EMBED_BATCH]])
            done = min(len(chunks), start + e + _EMBED_BATCH)
            await ctx.progress(0.05 + 0.9 * done / len(chunks))
        rows = [
            {
                "id": chunk_id(doc_id, c.ord),
                "ord": c.ord,
                "text": c.text,
                "start": c.start,
                "end": c.end,
                "embedding": v,
            }
            for c, v in zip(batch, vectors, strict=True)
        ]
        await ctx.deps.executor.run(
            "documents/write_chunks", {"agent_id": agent_id, "document_id": doc_id, "rows": rows}
        )


async def _enqueue_extraction(ctx: JobContext, doc_id: str, n_chunks: int) -> dict[str, Any]:
    created = 0
    if ctx.deps.config.documents.extract_chunks and n_chunks:
        specs = [
            JobSpec(
                kind="chunk_extract",
                agent_id=ctx.job.agent_id,
                subject=chunk_id(doc_id, i),
                payload={"document_id": doc_id},
            )
            for i in range(n_chunks)
        ]
        for start in range(0, len(specs), 500):
            answers = await ctx.deps.queue.enqueue_many(specs[start : start + 500])
            created += sum(a.created for a in answers)
    await ctx.progress(1.0, force=True)
    return {"document_id": doc_id, "chunks": n_chunks, "extract_jobs": created}


async def chunk_extract_handler(ctx: JobContext) -> dict[str, Any]:
    """Job kind ``chunk_extract`` (subject: a chunk id): the write pipeline on the chunk text.

    The idempotency key is the chunk id, so re-running (crash, re-ingest) never duplicates.
    """
    pipeline = ctx.deps.writer
    if pipeline is None:
        raise JobFailed("no write pipeline configured for extraction jobs")
    rows = await ctx.deps.executor.run(
        "documents/chunk", {"agent_id": ctx.job.agent_id, "id": ctx.job.subject or ""}, read=True
    )
    if not rows:
        raise PermanentJobError(f"chunk {ctx.job.subject} not found")
    chunk = rows[0]
    speaker = (chunk["title"] or "document")[:120]
    key = f"chunk:{chunk['id']}"
    if ctx.job.attempts > 1:  # a crashed attempt may have left its claim (see async_write)
        await ctx.deps.executor.run(
            "jobs/release_pending_receipt",
            {"agent_id": ctx.job.agent_id, "key": idempotency_digest(key)},
        )
    try:
        result = await pipeline.write(
            ctx.job.agent_id,
            chunk["text"],
            speaker,
            idempotency_key=key,
            thread_id=f"document:{chunk['document_id']}",
            config_overrides={"offline_noun_phrase_ends": True},
            fence=ctx.fence,
        )
    except FencedOut as exc:
        raise LeaseLost(ctx.job.id) from exc
    if not result.success:  # LLM down / unusable answer: retried, then dead with last_error
        raise extraction_failed(result.error)
    return {"chunk_id": chunk["id"], "ord": chunk["ord"], "facts_added": len(result.facts_added)}
