"""Import an agent export (:mod:`graph.memory.transfer.records`) into an agent of this database.

Records are consumed one at a time from any iterable (the CLI reads the file line by line) and
written in batches of one ``UNWIND`` statement per kind (``cypher/import/*.cypher``), so memory
holds one batch. Ids are mapped with :func:`records.map_id`; entity keys and alias norms are
kept. When the export's model is not this server's (another name, another dimension, or an
export without vectors) the vectors are made again by the server's embedder from the same text
the write paths embed, batch by batch; otherwise the stored vectors are written as they are.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.spaces import check_space, embedder_name, record_space, recorded_space
from graph.memory.text import event_embedding_text
from graph.memory.transfer.records import KINDS, ExportHeader, parse_header, remap_record
from graph.providers import Embedder

__all__ = ["ImportResult", "import_agent"]

_VECTOR_KINDS = frozenset({"entity", "event", "chunk", "fact", "observation"})
_STATEMENTS = {
    "entity": "import/entities",
    "alias": "import/aliases",
    "event": "import/events",
    "document": "import/documents",
    "chunk": "import/chunks",
    "fact": "import/facts",
    "fact_link": "import/fact_links",
    "relation": "import/relations",
    "observation": "import/observations",
}


@dataclass
class ImportResult:
    """What an import wrote, per record kind, and whether it re-embedded."""

    agent_id: str
    source_agent: str
    source_embedder: str
    embedder: str
    reembedded: bool
    written: dict[str, int] = field(default_factory=dict)

    @property
    def facts(self) -> int:
        return self.written.get("fact", 0)


def _vector_text(kind: str, props: dict[str, Any]) -> str:
    if kind == "event":
        return event_embedding_text(props.get("text") or "", props.get("speaker") or "")
    if kind == "entity":
        return str(props.get("name") or props.get("key") or "")
    return str(props.get("text") or "")


async def _iterate(
    records: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
) -> Any:
    if isinstance(records, AsyncIterable):
        async for r in records:
            yield r
    else:
        for r in records:
            yield r


async def import_agent(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    records: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
    *,
    batch_size: int = 500,
    progress: Callable[[int], None] | None = None,
) -> ImportResult:
    """Write an export's records into ``agent_id`` (the header must come first).

    Args:
        progress: called with the number of records written after each batch.

    Raises:
        BadInput: no header, an unknown or malformed record, a record out of order, or
            vectors of another dimension than the server's under the same model name.
        EmbedderMismatch: ``agent_id`` already holds vectors of another model.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    current = embedder_name(embedder)
    check_space(agent_id, await recorded_space(executor, agent_id), current)
    header: ExportHeader | None = None
    result: ImportResult | None = None
    batch: list[tuple[dict[str, Any], bool]] = []  # (row, needs a vector)
    batch_kind: str | None = None
    seen_rank = 0

    async def flush() -> None:
        nonlocal batch
        if not batch or batch_kind is None or result is None:
            return
        todo = [row for row, need in batch if need]
        if todo:
            vectors = await embedder.embed([_vector_text(batch_kind, r["props"]) for r in todo])
            for row, vec in zip(todo, vectors, strict=True):
                row["props"]["embedding"] = vec
        rows = [row for row, _ in batch]
        await executor.run(_STATEMENTS[batch_kind], {"agent_id": agent_id, "rows": rows})
        result.written[batch_kind] = result.written.get(batch_kind, 0) + len(rows)
        if progress:
            progress(len(rows))
        batch = []

    async for line in _iterate(records):
        if header is None:
            header = parse_header(line)
            reembed = header.embedder != current or header.dimensions != embedder.dimensions
            result = ImportResult(agent_id, header.agent_id, header.embedder, current, reembed)
            continue
        assert result is not None
        kind = line.get("kind")
        if kind not in KINDS:
            raise BadInput(f"unknown record kind {kind!r}")
        rank = KINDS.index(kind)
        if rank < seen_rank:
            raise BadInput(
                f"a {kind} record after {KINDS[seen_rank]} records: "
                "records must come in export order"
            )
        seen_rank = rank
        row = remap_record(line, agent_id)
        need = False
        if kind in _VECTOR_KINDS:
            vec = row["props"].pop("embedding", None)
            if result.reembedded:
                need = True
            elif vec is not None:
                if len(vec) != embedder.dimensions:
                    raise BadInput(
                        f"{kind} vector of dimension {len(vec)}, the server's is "
                        f"{embedder.dimensions}"
                    )
                row["props"]["embedding"] = vec
        if kind != batch_kind or len(batch) >= batch_size:
            await flush()
            batch_kind = kind
        batch.append((row, need))
    if result is None:
        raise BadInput("empty export: no header line")
    await flush()
    if any(result.written.get(k) for k in _VECTOR_KINDS):
        await record_space(executor, agent_id, current)
    return result
