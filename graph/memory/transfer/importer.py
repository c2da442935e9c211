"""Import an agent export (:mod:`graph.memory.transfer.records`) into an agent of this database.

Records are consumed one at a time from any iterable (the CLI reads the file line by line) and
written in batches of one ``UNWIND`` statement per kind (``cypher/import/*.cypher``), so memory
holds one batch. A file (the CLI's, or the body ``POST /import`` spooled to disk) is read twice:
:func:`import_export_file` checks every line first (:func:`check_export`: JSON, header, kinds,
order, field types, vector sizes) and writes only a file found whole, so a bad line is refused
with its number before anything is written. Ids are mapped with :func:`records.map_id`; entity keys and alias norms are
kept. When the export's model is not this server's (another name, another dimension, or an
export without vectors) the vectors are made again by the server's embedder from the same text
the write paths embed, batch by batch; otherwise the stored vectors are written as they are.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from graph.errors import BadInput
from graph.executor import Executor
from graph.memory.ontology.label_names import PRODUCT_LABELS
from graph.memory.ontology.labels import type_labels
from graph.memory.ontology.store import ontology_in_force
from graph.memory.spaces import check_space, embedder_name, record_space, recorded_space
from graph.memory.text import event_embedding_text
from graph.memory.transfer.records import KINDS, ExportHeader, parse_header, remap_record
from graph.providers import Embedder

__all__ = [
    "MAX_LINE_BYTES",
    "ImportResult",
    "check_export",
    "import_agent",
    "import_export_file",
    "json_lines",
]

MAX_LINE_BYTES = 16_000_000  # one record (a long document's chunk with its vector fits easily)

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


async def _embed_rows(embedder: Embedder, kind: str, todo: list[dict[str, Any]]) -> None:
    """Make the vectors of the rows that need one, and of their facts' English glosses, in
    one embedder call."""
    if not todo:
        return
    glossed = [r for r in todo if kind == "fact" and r["props"].get("gloss")]
    vectors = await embedder.embed(
        [_vector_text(kind, r["props"]) for r in todo] + [str(r["props"]["gloss"]) for r in glossed]
    )
    for row, vec in zip(todo, vectors[: len(todo)], strict=True):
        row["props"]["embedding"] = vec
    for row, vec in zip(glossed, vectors[len(todo) :], strict=True):
        row["gloss_embedding"] = vec


def _gloss_vector(row: dict[str, Any], reembed: bool, dimensions: int) -> None:
    """A fact's gloss vector leaves its props (it is written as a vector, apart): kept as
    ``row["gloss_embedding"]`` unless the vectors are made again (``reembed``).

    Raises:
        BadInput: a kept gloss vector of another size than ``dimensions``.
    """
    vec = row["props"].pop("gloss_embedding", None)
    if reembed or vec is None or not row["props"].get("gloss"):
        return
    if not isinstance(vec, list) or len(vec) != dimensions:
        size = len(vec) if isinstance(vec, list) else type(vec).__name__
        raise BadInput(f"fact gloss vector of dimension {size}, the server's is {dimensions}")
    row["gloss_embedding"] = vec


async def _iterate(
    records: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
) -> Any:
    if isinstance(records, AsyncIterable):
        async for r in records:
            yield r
    else:
        for r in records:
            yield r


def _prepare(
    line: dict[str, Any], agent_id: str, seen_rank: int, reembed: bool, dimensions: int
) -> tuple[str, dict[str, Any], bool, int]:
    """One record after the header → (kind, the row its statement takes, whether it needs a
    vector, the rank of its kind). Pure.

    Raises:
        BadInput: an unknown kind, a record out of export order, a malformed record, or a
            vector of another size than ``dimensions`` (when the vectors are kept).
    """
    kind = line.get("kind")
    if kind not in KINDS:
        raise BadInput(f"unknown record kind {kind!r}")
    rank = KINDS.index(kind)
    if rank < seen_rank:
        raise BadInput(
            f"a {kind} record after {KINDS[seen_rank]} records: records must come in export order"
        )
    row = remap_record(line, agent_id)
    need = False
    if kind in _VECTOR_KINDS:
        vec = row["props"].pop("embedding", None)
        if reembed:
            need = True
        elif vec is not None:
            if not isinstance(vec, list) or len(vec) != dimensions:
                size = len(vec) if isinstance(vec, list) else type(vec).__name__
                raise BadInput(f"{kind} vector of dimension {size}, the server's is {dimensions}")
            row["props"]["embedding"] = vec
    if kind == "fact":
        _gloss_vector(row, reembed, dimensions)
    return kind, row, need, rank


def json_lines(fh: IO[bytes], max_line_bytes: int = MAX_LINE_BYTES) -> Iterator[tuple[int, Any]]:
    """(line number, JSON object) of each non-blank line of a binary file, in linear time and
    memory bounded by ``max_line_bytes``.

    Raises:
        BadInput: naming the line: longer than ``max_line_bytes``, not UTF-8 JSON, nested
            too deeply to parse, or not a JSON object.
    """
    number = 0
    while True:
        raw = fh.readline(max_line_bytes + 1)
        if not raw:
            return
        number += 1
        if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
            raise BadInput(f"line {number}: longer than {max_line_bytes} bytes")
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadInput(f"line {number}: not a JSON object ({type(exc).__name__})") from exc
        except RecursionError as exc:
            raise BadInput(f"line {number}: JSON nested too deeply") from exc
        if not isinstance(data, dict):
            raise BadInput(f"line {number}: expected a JSON object")
        yield number, data


def check_export(
    lines: Iterable[tuple[int, dict[str, Any]]], embedder: Embedder, agent_id: str
) -> int:
    """Check a whole export without writing: every record as :func:`import_agent` would take
    it. Returns the number of records after the header.

    Raises:
        BadInput: the first bad line, named (``line 7: fact record: 'about' must be …``).
    """
    current = embedder_name(embedder)
    header: ExportHeader | None = None
    seen_rank, count, where = 0, 0, 0
    try:
        for number, line in lines:
            where = number
            if header is None:
                header = parse_header(line)
                continue
            reembed = header.embedder != current or header.dimensions != embedder.dimensions
            _, _, _, seen_rank = _prepare(line, agent_id, seen_rank, reembed, embedder.dimensions)
            count += 1
    except BadInput as exc:
        if str(exc).startswith("line "):
            raise
        raise BadInput(f"line {where}: {exc}") from exc
    if header is None:
        raise BadInput("empty export: no header line")
    return count


async def import_export_file(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    fh: IO[bytes],
    *,
    batch_size: int = 500,
    progress: Callable[[int], None] | None = None,
    max_line_bytes: int = MAX_LINE_BYTES,
) -> ImportResult:
    """Import the export in the seekable binary file ``fh``: check it whole first
    (:func:`check_export`), then write it (:func:`import_agent`). A bad file writes nothing.

    Raises:
        BadInput: the first bad line, named; see also :func:`import_agent`.
        EmbedderMismatch: ``agent_id`` already holds vectors of another model.
    """
    if not agent_id or not agent_id.strip():
        raise BadInput("agent_id is required")
    check_space(agent_id, await recorded_space(executor, agent_id), embedder_name(embedder))
    fh.seek(0)
    # Parsing a whole file is CPU work: off the event loop.
    await asyncio.to_thread(check_export, json_lines(fh, max_line_bytes), embedder, agent_id)
    fh.seek(0)
    return await import_agent(
        executor,
        embedder,
        agent_id,
        (record for _, record in json_lines(fh, max_line_bytes)),
        batch_size=batch_size,
        progress=progress,
    )


async def import_agent(
    executor: Executor,
    embedder: Embedder,
    agent_id: str,
    records: Iterable[dict[str, Any]] | AsyncIterable[dict[str, Any]],
    *,
    batch_size: int = 500,
    progress: Callable[[int], None] | None = None,
) -> ImportResult:
    """Write an export's records into ``agent_id`` (the header must come first). Records are
    written batch by batch as they come: a bad record stops the import with an error naming it
    and what was written before it (:func:`import_export_file` checks a file whole first).

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
    # The entity type labels of the agent's ontology: an imported entity carries its type's.
    labels = type_labels(await ontology_in_force(executor, agent_id))
    header: ExportHeader | None = None
    result: ImportResult | None = None
    batch: list[tuple[dict[str, Any], bool]] = []  # (row, needs a vector)
    batch_kind: str | None = None
    seen_rank = 0

    async def flush() -> None:
        nonlocal batch
        if not batch or batch_kind is None or result is None:
            return
        await _embed_rows(embedder, batch_kind, [row for row, need in batch if need])
        rows = [row for row, _ in batch]
        params: dict[str, Any] = {"agent_id": agent_id, "rows": rows}
        if batch_kind == "entity":
            params.update(labels=labels, keep=sorted(PRODUCT_LABELS))
        await executor.run(_STATEMENTS[batch_kind], params)
        result.written[batch_kind] = result.written.get(batch_kind, 0) + len(rows)
        if progress:
            progress(len(rows))
        batch = []

    number = 0
    async for line in _iterate(records):
        number += 1
        if header is None:
            header = parse_header(line)
            reembed = header.embedder != current or header.dimensions != embedder.dimensions
            result = ImportResult(agent_id, header.agent_id, header.embedder, current, reembed)
            continue
        assert result is not None
        try:
            kind, row, need, seen_rank = _prepare(
                line, agent_id, seen_rank, result.reembedded, embedder.dimensions
            )
        except BadInput as exc:  # the state it leaves, exactly (records given unchecked)
            raise BadInput(
                f"record {number}: {exc}; written before it: "
                f"{json.dumps(result.written, sort_keys=True)}"
            ) from exc
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
