"""``hippograph worker`` (standalone worker) and ``hippograph jobs …`` (list, show, run, ingest,
failed)."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import typer

from graph.memory.facade import Memory
from server.settings import get_settings

jobs_app = typer.Typer(
    help="Background jobs: list, inspect, run one now, ingest documents.", no_args_is_help=True
)


def _memory() -> tuple[Memory, Callable[[], Awaitable[None]]]:
    from graph.schema import ensure_schema
    from server.composition import build_memory

    memory = build_memory(get_settings())

    async def prepare() -> None:
        await ensure_schema(memory.executor, memory.embedder.dimensions)

    return memory, prepare


def _with_memory(work: Callable[[Memory], Awaitable[None]]) -> None:
    """Run ``work`` with this process's services, closed afterwards."""

    async def main() -> None:
        memory, _ = _memory()
        try:
            await work(memory)
        finally:
            await memory.close()

    asyncio.run(main())


def _fmt_job(job: Any) -> str:
    when = job.created_at.isoformat(timespec="seconds") if job.created_at else "-"
    err = (
        f"  last_error={job.last_error_code or '?'}: {job.last_error[:80]!r}"
        if job.last_error
        else ""
    )
    return (
        f"{job.id}  {job.kind:<15} {job.status:<8} attempts={job.attempts}/"
        f"{job.max_attempts} progress={job.progress:.0%} agent={job.agent_id} "
        f"subject={job.subject or '-'} created={when}{err}"
    )


def register(app: typer.Typer) -> None:
    app.add_typer(jobs_app, name="jobs")
    app.command()(worker)


def worker(
    concurrency: int = typer.Option(0, help="Worker loops (default from settings)"),
    kinds: str = typer.Option("", help="Comma-separated job kinds (default: all)"),
    scheduler: bool = typer.Option(
        True,
        "--scheduler/--no-scheduler",
        help="Also enqueue periodic maintenance jobs (once per "
        "cluster: a lease in Neo4j picks one scheduler)",
    ),
    agent: str = typer.Option(None, "--agent", help="Only this agent's jobs (a dedicated worker)"),
) -> None:
    """Run the background worker standalone until SIGINT/SIGTERM (graceful stop)."""
    wanted = [k.strip() for k in kinds.split(",") if k.strip()] or None
    asyncio.run(_run_worker(concurrency or None, wanted, scheduler, agent))


async def _run_worker(
    concurrency: int | None, kinds: list[str] | None, scheduler: bool, agent: str | None
) -> None:
    from graph.memory.warm_start import warm_start
    from server.tracing_setup import configure_tracing, stop_tracing
    from server.worker import sender_wanted, start_webhook_sender, start_worker, stop_sender

    memory, prepare = _memory()
    tracer_provider = configure_tracing(get_settings())
    await prepare()
    # The models and the hot statements before the first job, not during it (unless
    # HIPPOGRAPH_WARM_UP=false: then the first job pays for them).
    if get_settings().warm_up:
        warmed = await warm_start(memory, log=typer.echo)
        typer.echo(f"warmed up in {warmed.total_s:.1f}s")
    handle = await start_worker(
        memory, concurrency=concurrency, scheduler=scheduler, kinds=kinds, agent_id=agent
    )
    sender = (
        await start_webhook_sender(memory)
        if agent is None and sender_wanted(get_settings(), True)
        else None
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    typer.echo(f"worker running ({len(handle.workers)} loop(s)); Ctrl-C stops it")
    await stop.wait()
    typer.echo("stopping: finishing or releasing the current job(s)…")
    await handle.stop()
    await stop_sender(sender)
    typer.echo(f"stopped: {handle.stats()}")
    await memory.close()
    stop_tracing(tracer_provider)


@jobs_app.command("list")
def list_jobs(
    agent: str = typer.Option(None, "--agent", help="Only this agent"),
    status: str = typer.Option(None, help="pending, leased, done or dead"),
    kind: str = typer.Option(None, help="Only this job kind"),
    limit: int = typer.Option(50, help="Newest N jobs"),
) -> None:
    """List jobs, newest first."""

    async def work(memory: Memory) -> None:
        queue = memory.queue
        jobs = await queue.list_jobs(agent_id=agent, status=status, kind=kind, limit=limit)
        for job in jobs:
            typer.echo(_fmt_job(job))
        counts = await queue.counts(agent_id=agent, kind=kind)
        typer.echo(f"-- {len(jobs)} shown; totals: {json.dumps(counts)}")

    _with_memory(work)


@jobs_app.command("show")
def show(job_id: str) -> None:
    """Show one job with its payload and result."""

    async def work(memory: Memory) -> None:
        job = await memory.queue.get(job_id)
        if job is None:
            typer.echo(f"no job {job_id}", err=True)
            raise typer.Exit(1)
        typer.echo(_fmt_job(job))
        typer.echo(f"payload: {json.dumps(job.payload, default=str)}")
        typer.echo(f"result:  {json.dumps(job.result, default=str)}")

    _with_memory(work)


@jobs_app.command("failed")
def failed(
    agent: str = typer.Option(..., "--agent", help="The agent whose messages to list"),
    retry: bool = typer.Option(
        False, "--retry", help="Queue an extract job for each listed message"
    ),
    limit: int = typer.Option(50, help="Newest N failed messages (1..500)"),
) -> None:
    """List stored messages whose extraction failed (with its error); --retry re-runs them
    as extract jobs (a running worker, or `hippograph worker`, picks them up)."""
    from graph.memory.jobs.orphans import retry_failed
    from graph.memory.write.failed import failed_messages

    async def work(memory: Memory) -> None:
        rows = await failed_messages(memory.executor, agent, limit)
        for m in rows:
            when = m.failed_at.isoformat(timespec="seconds") if m.failed_at else "-"
            typer.echo(
                f"{m.event_id}  failed={when}  error={m.error}  {m.speaker}: {m.text[:80]!r}"
            )
        typer.echo(f"-- {len(rows)} failed message(s)")
        if retry and rows:
            jobs = await retry_failed(memory.queue, agent, [m.event_id for m in rows])
            typer.echo(f"-- queued {len(jobs)} extract job(s): {' '.join(jobs)}")

    _with_memory(work)


@jobs_app.command("run")
def run(
    kind: str = typer.Argument(
        ..., help="profile, consolidate, importance, decay, dedup_entities, …"
    ),
    agent: str = typer.Option(..., "--agent", help="The agent to run it for"),
    subject: str = typer.Option(None, help="Job subject (e.g. an entity key for profile)"),
) -> None:
    """Run one job of KIND for an agent now, in this process, with a progress bar."""
    asyncio.run(_run_now(kind, agent, subject))


@jobs_app.command("ingest")
def ingest(
    source: str = typer.Argument(..., help="A file path or an http(s) URL"),
    agent: str = typer.Option(..., "--agent", help="The agent the document belongs to"),
    title: str = typer.Option(None, help="Title (default: extracted)"),
    wait: bool = typer.Option(
        True, "--wait/--no-wait", help="Run the ingest and extraction jobs here until done"
    ),
) -> None:
    """Ingest a document (text, markdown or HTML) as jobs, with a progress bar."""
    asyncio.run(_ingest(source, agent, title, wait))


async def _run_now(kind: str, agent: str, subject: str | None) -> None:
    from graph.memory.jobs import JobQueue, JobSpec, Worker
    from graph.memory.maintenance.kinds import MAINTENANCE_KINDS, maintenance_spec
    from graph.progress import progress_bar
    from server.composition import default_handlers

    memory, prepare = _memory()
    try:
        await prepare()
        deps = memory.job_deps()
        handlers = default_handlers()
        if kind not in handlers:
            typer.echo(
                f"unknown or unavailable job kind {kind!r}; have {sorted(handlers)}", err=True
            )
            raise typer.Exit(2)
        queue: JobQueue = deps.queue
        queued = await queue.enqueue(
            maintenance_spec(kind, agent, subject, memory.write_config.pii_mode)
            if kind in MAINTENANCE_KINDS
            else JobSpec(kind=kind, agent_id=agent, subject=subject)
        )
        bar = progress_bar(total=100, desc=f"{kind} {agent}", unit="%")

        def show(_job: Any, fraction: float) -> None:
            bar.n = round(100 * min(1.0, max(0.0, fraction)))
            bar.refresh()

        worker = Worker(deps, {kind: handlers[kind]}, on_progress=show)
        job = await queue.lease_id(queued.job_id, worker.owner)
        if job is not None:
            await worker.process(job)
        else:  # another worker holds it: follow its progress
            while (current := await queue.get(queued.job_id)) and current.status in (
                "pending",
                "leased",
            ):
                show(current, current.progress)
                await asyncio.sleep(0.5)
        final = await queue.get(queued.job_id)
        show(final, 1.0 if final and final.status == "done" else bar.n / 100)
        bar.close()
        if final is not None:
            typer.echo(_fmt_job(final))
            typer.echo(f"result: {json.dumps(final.result, default=str)}")
            if final.status != "done":
                raise typer.Exit(1)
    finally:
        await memory.close()


async def _ingest(source: str, agent: str, title: str | None, wait: bool) -> None:
    from graph.memory.jobs import Worker
    from graph.progress import progress_bar
    from server.composition import default_handlers

    memory, prepare = _memory()
    try:
        await prepare()
        deps = memory.job_deps()
        is_url = source.startswith(("http://", "https://"))
        text = None if is_url else Path(source).read_text(encoding="utf-8", errors="replace")
        fmt = None
        if not is_url and source.lower().endswith((".md", ".markdown")):
            fmt = "markdown"
        elif not is_url and source.lower().endswith((".html", ".htm")):
            fmt = "html"
        accepted = await memory.documents.ingest(
            agent,
            text=text,
            url=source if is_url else None,
            title=title,
            fmt=fmt,
            source=source,
        )
        typer.echo(f"document {accepted.document_id} (job {accepted.job_id})")
        if not wait:
            return
        kinds = {
            k: h for k, h in default_handlers().items() if k in ("document_ingest", "chunk_extract")
        }
        worker = Worker(deps, kinds, agent_id=agent)
        bar = progress_bar(total=100, desc="ingest", unit="%")
        while True:
            ran = await worker.run_once()
            progress = await memory.documents.progress(agent, accepted.document_id)
            bar.n = round(100 * progress.fraction)
            bar.refresh()
            if progress.complete or (not ran and progress.ingest_status in ("dead", None)):
                break
            if not ran:
                await asyncio.sleep(0.5)
        bar.close()
        typer.echo(
            f"status={progress.status} chunks={progress.chunks} "
            f"extraction={json.dumps(progress.extract)}"
        )
    finally:
        await memory.close()
