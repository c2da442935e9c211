"""Export and import speed on the LoCoMo dev set (facts/s and records/s).

    .venv/bin/python -m tests.bench.bench_transfer ../shared/bench/locomo/locomo-dev.json

Every conversation becomes one agent (observation facts with their session dates and
provenance, every turn an event, the speakers as entities: ``tests.bench.locomo``), written with
structured ``remember`` (not timed). Then, per agent, timed:

- export: JSON Lines to a temporary file, vectors included (``hippograph export``);
- import: that file into a fresh agent with the same model (vectors written as they are);
- import, re-embedding: an export without vectors into another fresh agent (what an import
  from another model does: every fact, event and entity embedded again).

Facts/s counts the agent's facts (every version) over the whole run of the step, which also
moves its events, entities and links: records/s counts everything written. The agents and the
files are deleted at the end. ``--conversations N`` bounds the run (default: all five).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

from graph.agent_deletion import delete_agent
from graph.memory.facade import Memory
from graph.memory.remember import remember
from graph.memory.transfer import export_agent, import_agent
from graph.memory.write import StructuredEntity
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.cli.transfer import read_lines
from server.composition import build_memory
from server.settings import get_settings
from tests.bench.locomo import load_conversation


async def _export(mem: Memory, agent: str, path: Path, embeddings: bool) -> tuple[int, int]:
    records = facts = 0
    with path.open("w", encoding="utf-8") as fh:
        async for r in export_agent(
            mem.executor,
            agent,
            embedder_name=mem.embedder.name,
            dimensions=mem.embedder.dimensions,
            embeddings=embeddings,
        ):
            fh.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
            records += 1
            facts += r["kind"] == "fact"
    return records, facts


async def main(path: str, max_convs: int | None) -> None:
    with open(path, encoding="utf-8") as fh:
        samples = json.load(fh)[:max_convs]
    run = str(int(time.time()))
    convs = [load_conversation(s, f"transfer-{run}") for s in samples]
    memory = build_memory(get_settings())
    await ensure_schema(memory.executor, memory.embedder.dimensions)
    made: list[str] = []
    totals: dict[str, list[float]] = {
        "export": [0.0, 0, 0, 0],
        "import": [0.0, 0, 0],
        "import (re-embed)": [0.0, 0, 0],
    }
    try:
        with progress_bar(total=len(convs), desc="remember (setup, not timed)", unit="conv") as bar:
            for c in convs:
                made.append(c.agent_id)
                await remember(
                    memory.executor,
                    memory.embedder,
                    c.agent_id,
                    facts=c.facts,
                    events=c.events,
                    entities=[StructuredEntity(s, "person") for s in c.speakers],
                )
                bar.update(1)
        with tempfile.TemporaryDirectory() as tmp:
            for c in progress_bar(convs, desc="export / import", unit="conv"):
                full, bare = Path(tmp) / "full.jsonl", Path(tmp) / "bare.jsonl"
                t = time.perf_counter()
                records, facts = await _export(memory, c.agent_id, full, embeddings=True)
                totals["export"][0] += time.perf_counter() - t
                totals["export"][1] += facts
                totals["export"][2] += records
                totals["export"][3] += full.stat().st_size
                await _export(memory, c.agent_id, bare, embeddings=False)
                for step, src in (("import", full), ("import (re-embed)", bare)):
                    target = f"{c.agent_id}-{'copy' if src is full else 'reembed'}"
                    made.append(target)
                    t = time.perf_counter()
                    result = await import_agent(
                        memory.executor, memory.embedder, target, read_lines(src)
                    )
                    totals[step][0] += time.perf_counter() - t
                    totals[step][1] += result.facts
                    totals[step][2] += sum(result.written.values())
    finally:
        for agent in made:
            await delete_agent(memory.executor, agent)
        await memory.close()
    print(f"\nLoCoMo dev: {len(convs)} conversations, embedder {memory.embedder.name}")
    print(f"{'step':<20}{'facts':>8}{'records':>9}{'seconds':>9}{'facts/s':>9}{'records/s':>11}")
    for step, (secs, facts, records, *_) in totals.items():
        print(
            f"{step:<20}{facts:>8.0f}{records:>9.0f}{secs:>9.1f}{facts / secs:>9.0f}"
            f"{records / secs:>11.0f}"
        )
    size = totals["export"][3]
    print(f"export size with vectors: {size / 1e6:.1f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="locomo-dev.json")
    parser.add_argument("--conversations", type=int, default=None)
    args = parser.parse_args()
    asyncio.run(main(args.path, args.conversations))
