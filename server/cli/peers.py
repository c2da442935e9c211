"""``hippograph import --from mem0 FILE`` and ``--from graphiti --bolt URI``: the CLI side of
:mod:`graph.memory.transfer.peers` (the report of what mapped and what did not is printed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from server.settings import get_settings

__all__ = ["import_graphiti", "import_mem0"]


async def import_mem0(
    path: Path, agent: str, *, batch_size: int = 500, memory: Any = None
) -> dict[str, Any]:
    """Import a Mem0 ``get_all`` JSON file into ``agent`` with a progress bar."""
    from graph.errors import BadInput
    from graph.memory.transfer import peers
    from graph.progress import progress_bar
    from graph.schema import ensure_schema
    from server.composition import build_memory

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: not a JSON document ({exc})") from exc
    except RecursionError as exc:
        raise BadInput(f"{path}: JSON nested too deeply") from exc
    mem = memory or build_memory(get_settings())
    bar = progress_bar(total=0, unit="rec", desc=f"mem0 → {agent}")

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        await ensure_schema(mem.executor, mem.embedder.dimensions)
        return await peers.import_mem0(
            mem.executor, mem.embedder, agent, data, batch_size=batch_size, progress=progress
        )
    finally:
        bar.close()
        if memory is None:
            await mem.close()


async def import_graphiti(
    bolt: str,
    user: str,
    password: str,
    database: str,
    agent: str,
    *,
    groups: list[str] | None = None,
    batch_size: int = 500,
    memory: Any = None,
) -> dict[str, Any]:
    """Read a Graphiti graph from its Neo4j at ``bolt`` and import it into ``agent``."""
    from graph.errors import BadInput
    from graph.executor import connect
    from graph.memory.transfer import peers
    from graph.progress import progress_bar
    from graph.schema import ensure_schema
    from server.composition import build_memory

    source = connect(bolt, user, password, database)
    mem = memory or build_memory(get_settings())
    bar = progress_bar(total=None, unit="item", desc=f"graphiti → {agent}")
    try:
        if not await source.ping():
            raise BadInput(f"no Neo4j answers at {bolt} with these credentials")
        await ensure_schema(mem.executor, mem.embedder.dimensions)
        return await peers.import_graphiti(
            source,
            mem.executor,
            mem.embedder,
            agent,
            groups=groups,
            page_size=batch_size,
            progress=bar.update,
        )
    finally:
        bar.close()
        await source.close()
        if memory is None:
            await mem.close()
