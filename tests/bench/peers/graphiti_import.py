"""Import a real Graphiti graph: graphiti-core builds it, ``hippograph import --from graphiti``
reads it back.

    .venv/bin/python -m tests.bench.peers.graphiti_import ../shared/bench/locomo/locomo-dev.json

The first ``--turns`` LoCoMo turns go through Graphiti's own ``add_episode`` (graphiti-core in
its virtual environment, its own throw-away Neo4j, the scripted LLM endpoint of the LLM cost
benchmark answering its extraction prompts: ``tests.bench.peers.graphiti_peer``), then the
graph is imported into a fresh agent of the local Neo4j with
:func:`graph.memory.transfer.peers.import_graphiti`. Prints Graphiti's graph, the import report
(what mapped and what did not), import speed, and a few retrieve answers; the agent is deleted
and the second Neo4j stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
import uuid
from datetime import timedelta
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.transfer.peers import import_graphiti
from graph.progress import progress_bar
from graph.schema import ensure_schema
from server.composition import build_memory
from server.settings import get_settings
from tests.bench.locomo import parse_session_date
from tests.bench.peers.graphiti_peer import PASSWORD, GraphitiPeer
from tests.bench.scripted_endpoint import ScriptedEndpoint


def _turns(path: str, limit: int) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        conv = json.load(fh)[0]["conversation"]
    out: list[dict[str, Any]] = []
    sessions = sorted(
        (int(m.group(1)), k)
        for k in conv
        if (m := re.fullmatch(r"session_(\d+)", k)) and isinstance(conv[k], list)
    )
    for _, key in sessions:
        when = parse_session_date(conv[f"{key}_date_time"])
        for i, turn in enumerate(conv[key]):
            out.append(
                {
                    "speaker": turn["speaker"],
                    "text": turn["text"],
                    "when": when + timedelta(seconds=i),
                    "dia_id": turn["dia_id"],
                }
            )
            if len(out) == limit:
                return out
    return out


async def main(path: str, n_turns: int, ports: tuple[int, int]) -> None:
    settings = get_settings()
    turns = _turns(path, n_turns)
    group = f"import_{uuid.uuid4().hex[:6]}"
    agent = f"bench-graphiti-import-{uuid.uuid4().hex[:6]}"
    memory = build_memory(settings)
    with ScriptedEndpoint() as endpoint:
        peer = GraphitiPeer(
            settings.home,
            log=lambda m: print(f"  graphiti: {m}"),
            bolt_port=ports[0],
            http_port=ports[1],
            llm_base_url=endpoint.base_url("graphiti"),
            start_timeout_s=600.0,
        )
        try:
            await peer.start()
            print(f"graphiti-core {peer.version} on {peer.neo4j.uri}")
            recent: list[str] = []
            for turn in progress_bar(turns, desc="graphiti add_episode", unit="turn"):
                endpoint.current(turn["text"], turn["speaker"], recent[-4:])
                await peer.episode(
                    group,
                    turn["dia_id"],
                    f"{turn['speaker']}: {turn['text']}",
                    turn["when"].isoformat(),
                )
                recent.append(f"{turn['speaker']}: {turn['text']}")
            source = connect(peer.neo4j.uri, "neo4j", PASSWORD)
            try:
                await ensure_schema(memory.executor, memory.embedder.dimensions)
                started = time.perf_counter()
                report = await import_graphiti(
                    source, memory.executor, memory.embedder, agent, groups=[group]
                )
                secs = time.perf_counter() - started
            finally:
                await source.close()
            print(json.dumps(report, ensure_ascii=False, indent=2, default=str))
            facts = report["mapped"].get("edges → facts", 0)
            print(
                f"import: {facts} facts in {secs:.1f} s ({facts / secs:.1f} facts/s, "
                f"re-embedded with {memory.embedder.name})"
            )
            for question in ("What does Caroline do?", "Who did Melanie talk to?"):
                r = await memory.retriever.retrieve(
                    agent, question, options={"enable_reranker": False}
                )
                print(f"{question} → {[f.text for f in r.facts[:3]]}")
        finally:
            await peer.close()
            await delete_agent(memory.executor, agent)
            await memory.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="locomo-dev.json")
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--graphiti-bolt-port", type=int, default=28687)
    parser.add_argument("--graphiti-http-port", type=int, default=28474)
    args = parser.parse_args()
    asyncio.run(main(args.path, args.turns, (args.graphiti_bolt_port, args.graphiti_http_port)))
