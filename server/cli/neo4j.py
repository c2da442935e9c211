"""``hippograph neo4j install|start|stop|status|logs|password|warm`` — the local server's lifecycle."""

from __future__ import annotations

import asyncio
import json
import time

import typer

from graph.errors import GraphError
from graph.executor import connected
from graph.memory.read.warmup import warm_read_paths
from graph.page_cache import Warmed, agent_sizes, read_files, warm_page_cache
from graph.progress import progress_bar
from graph.runtime import RuntimeError_
from server.composition import retrieve_config
from server.runtime import install as install_local
from server.runtime import local_neo4j
from server.settings import get_settings

app = typer.Typer(
    help="Install and run the local Neo4j 5.26 (from Maven Central).", no_args_is_help=True
)


def _guard_remote() -> bool:
    s = get_settings()
    if not s.local_neo4j:
        typer.echo(f"NEO4J_URI is set ({s.neo4j_uri}): using that server, nothing to do locally.")
        return True
    return False


@app.command()
def install() -> None:
    """Resolve Neo4j, APOC, Browser (and OpenGDS) jars into .hippograph/neo4j (idempotent)."""
    if _guard_remote():
        return
    code = install_local(log=typer.echo)
    if code:
        raise typer.Exit(code)


@app.command()
def start(
    warm: bool = typer.Option(
        False, "--warm", help="Then warm the server up (see `hippograph neo4j warm`)."
    ),
) -> None:
    """Start the local server in the background and wait until Bolt answers."""
    if _guard_remote():
        return
    t0 = time.monotonic()
    try:
        started = local_neo4j().start(log=typer.echo)
    except RuntimeError_ as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1) from exc
    word = "started" if started else "already running"
    typer.echo(
        f"Neo4j {word} ({time.monotonic() - t0:.1f}s): bolt://127.0.0.1:{get_settings().neo4j_bolt_port}"
    )
    if warm:
        _warm()


QUESTIONS = typer.Option(
    300, "--questions", min=0, help="Questions asked afterwards to warm the read paths (0: none)."
)


@app.command("warm")
def warm_command(questions: int = QUESTIONS) -> None:
    """Read every agent's facts, entities, events and observations once (vectors, texts,
    relationships) so Neo4j's page cache holds them: after a restart the first questions then
    do not wait on the disk. For the local server, first read its database's files (store and
    indexes) into the OS cache. Then ask a few hundred questions of the store's own facts, so
    the server compiles its read paths before users ask. Reads only; works on the configured
    server, local or NEO4J_URI."""
    _warm(questions)


def _warm(questions: int = 300) -> None:
    s = get_settings()
    if s.local_neo4j:
        server = local_neo4j()
        if not server.status().running:
            typer.echo("error: the local Neo4j is not running (hippograph neo4j start)", err=True)
            raise typer.Exit(1)
        folder = server.database_dir(s.neo4j_database)
        t0 = time.monotonic()
        with progress_bar(desc="reading the database's files", unit="B", unit_scale=True) as bar:
            size = read_files(
                folder, planned=lambda n: setattr(bar, "total", n), progress=bar.update
            )
        typer.echo(f"read {size / 2**20:,.0f} MiB of {folder} in {time.monotonic() - t0:.1f}s")

    async def main() -> tuple[Warmed, int, float]:
        async with connected(s.bolt_uri, s.neo4j_user, s.neo4j_secret(), s.neo4j_database) as ex:
            sizes = await agent_sizes(ex)
            with progress_bar(desc="warming the page cache", unit="item") as bar:
                done = await warm_page_cache(
                    ex, sizes, planned=lambda n: setattr(bar, "total", n), progress=bar.update
                )
            t0 = time.monotonic()
            asked = 0
            if questions:
                with progress_bar(desc="warming the read paths", unit="question") as bar:
                    asked = await warm_read_paths(
                        ex,
                        retrieve_config(s),
                        sizes,
                        questions=questions,
                        planned=lambda n: setattr(bar, "total", n),
                        progress=bar.update,
                    )
            return done, asked, time.monotonic() - t0

    try:
        done, asked, took = asyncio.run(main())
    except GraphError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(
        f"page cache warmed in {done.seconds:.1f}s: {done.agents} agent"
        f"{'' if done.agents == 1 else 's'}, {done.nodes} nodes, "
        f"{done.relationships} relationships, {done.values} property values read"
    )
    if questions:
        typer.echo(f"read paths warmed in {took:.1f}s: {asked} questions of the store's own facts")


@app.command()
def stop() -> None:
    """Stop the local server (SIGTERM, SIGKILL after 60 s)."""
    if _guard_remote():
        return
    typer.echo("stopped" if local_neo4j().stop() else "not running")


@app.command()
def status(as_json: bool = typer.Option(False, "--json", help="Machine-readable output")) -> None:
    """Show whether the local server is installed and running."""
    if _guard_remote():
        return
    st = local_neo4j().status()
    if as_json:
        typer.echo(json.dumps(st.__dict__))
    else:
        for k, v in st.__dict__.items():
            typer.echo(f"{k:10} {v}")
    if not st.running:
        raise typer.Exit(3)


@app.command()
def logs(lines: int = typer.Option(50, "--lines", "-n", help="How many lines")) -> None:
    """Print the tail of the server's logs."""
    typer.echo(local_neo4j().log_tail(lines))


@app.command()
def password() -> None:
    """Print the local server's password (generated at its first start; NEO4J_PASSWORD wins)."""
    if _guard_remote():
        return
    typer.echo(get_settings().neo4j_secret())
