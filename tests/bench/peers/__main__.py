"""``python -m tests.bench.peers DATA.json``: see the package docstring."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from graph.agent_deletion import delete_agent
from graph.executor import connect
from graph.memory.read import Retriever
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.settings import Settings
from tests.bench.peers import __doc__ as DOC
from tests.bench.peers.graphiti_peer import GraphitiPeer, PeerUnavailable
from tests.bench.peers.rankers import VectorTable, local_rankers
from tests.bench.peers.report import latency_table, quality_table, repeated_figures
from tests.bench.peers.run import (
    GRAPHITI,
    LATENCY_RANKERS,
    MODES,
    build_corpora,
    evaluate,
    import_all,
    log,
    scale_latency,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench.peers", description=(DOC or "").splitlines()[0]
    )
    parser.add_argument("path", help="LoCoMo JSON, e.g. ../shared/bench/locomo/locomo-dev.json")
    parser.add_argument("--conversations", type=int, default=None, help="first N conversations")
    parser.add_argument("--questions", type=int, default=None, help="first N per conversation")
    parser.add_argument(
        "--sizes",
        default="10000",
        help="facts per agent for the latency table, comma-separated "
        "(e.g. 10000,100000; empty for none)",
    )
    parser.add_argument(
        "--latency-questions",
        type=int,
        default=40,
        help="questions timed per size in the latency table",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="latency questions asked this many times per size (spread of p95)",
    )
    parser.add_argument("--skip-graphiti", action="store_true", help="no Graphiti peer")
    parser.add_argument(
        "--graphiti-bolt-port",
        type=int,
        default=28687,
        help="Bolt port of Graphiti's own Neo4j (pick a free one)",
    )
    parser.add_argument(
        "--graphiti-http-port", type=int, default=28474, help="HTTP port of Graphiti's own Neo4j"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    return args


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


async def main(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    settings = Settings()
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    table = VectorTable(MiniLMEmbedder(find_tokenizer(settings.home)))
    await ensure_schema(ex, table.dimensions)
    with open(args.path, encoding="utf-8") as fh:
        samples = json.load(fh)[: args.conversations]
    run = uuid.uuid4().hex[:6]
    corpora = build_corpora(samples, run, args.questions)
    peer = (
        None
        if args.skip_graphiti
        else GraphitiPeer(
            settings.home, log, bolt_port=args.graphiti_bolt_port, http_port=args.graphiti_http_port
        )
    )
    peer_start = asyncio.create_task(peer.start()) if peer else None
    result: dict[str, Any] = {"dataset": str(args.path), "graphiti": {"status": "skipped"}}
    try:
        texts = [
            t
            for c in corpora
            for t in (
                *(f.text for f in c.turns.facts),
                *(e.text for e in c.turns.events),
                *c.turns.speakers,
                *(q["question"] for q in c.turns.questions),
            )
        ]
        texts += corpora[0].all_questions[: args.latency_questions + 3] if corpora else []
        log(f"embedding {len(set(texts))} texts with MiniLM (once, shared by every ranker)")
        await table.embed(texts)
        if peer and peer_start:
            try:
                await peer_start
                result["graphiti"] = {
                    "status": "ok",
                    "version": peer.version,
                    "neo4j": peer.neo4j.uri,
                    "reused_jars": str(peer.neo4j.reused),
                }
            except PeerUnavailable as exc:
                log(f"GRAPHITI BLOCKED: {exc}")
                result["graphiti"] = {"status": "blocked", "error": str(exc)}
                await peer.close()
                peer = None
        await import_all(ex, table, corpora, peer)
        rankers = local_rankers(ex, Retriever(ex, table))
        stats = await evaluate(corpora, table, rankers, peer)
        n_facts = sum(len(c.facts.facts) for c in corpora)
        n_turns = sum(len(c.turns.events) for c in corpora)
        result.update(
            conversations=len(corpora),
            facts=n_facts,
            turns=n_turns,
            questions=stats[MODES[0]]["hippograph"].metrics.n,
        )
        result["modes"] = {m: {n: s.figures() for n, s in by.items()} for m, by in stats.items()}
        dataset_size = round(n_facts / max(1, len(corpora)))
        latency = {
            dataset_size: {
                n: result["modes"][MODES[0]][n]
                for n in LATENCY_RANKERS
                if n in result["modes"][MODES[0]]
            }
        }
        for size in args.sizes:
            reps = await scale_latency(
                ex,
                table,
                corpora[0],
                size,
                run,
                rankers,
                peer,
                args.latency_questions,
                args.repeats,
            )
            scaled = repeated_figures(reps)
            latency[size] = {n: scaled[n] for n in LATENCY_RANKERS if n in scaled}
        result["latency"] = {str(k): v for k, v in latency.items()}
        result["load_average"] = os.getloadavg()
        result["seconds"] = time.perf_counter() - started
        print_report(result, latency, dataset_size)
        return result
    finally:
        for corpus in corpora:
            for conv in (corpus.facts, corpus.turns):
                await delete_agent(ex, conv.agent_id)
        if peer:
            if peer_start and not peer_start.done():  # interrupted while Graphiti was starting
                await asyncio.gather(peer_start, return_exceptions=True)
            await peer.close()
        await ex.close()


def print_report(result: dict[str, Any], latency: dict[int, Any], dataset_size: int) -> None:
    g = result["graphiti"]
    graphiti = (
        f"graphiti-core {g['version']} on a second Neo4j ({g['neo4j']})"
        if g["status"] == "ok"
        else f"Graphiti {g['status']}: {g.get('error', '')}"
    )
    print(
        f"\nPeers benchmark — {result['conversations']} conversations, {result['facts']} "
        f"observation facts, {result['turns']} turns, {result['questions']} questions "
        f"(categories 1-4); {load_line()}"
    )
    print(
        f"{graphiti}. Same MiniLM vectors for every ranker; no LLM, no rerank. BM25 = Neo4j "
        "full-text (Lucene). Graphiti ms are measured in its process around search(); its "
        "defaults are kept (cosine floor 0.6, 20 results asked)."
    )
    for mode in MODES:
        note = (
            " — Graphiti is facts-only here too: search() returns only EntityEdges"
            if mode == MODES[1] and GRAPHITI in result["modes"][mode]
            else ""
        )
        print(
            f"\n### {mode} ({result['facts']} facts"
            + (f" + {result['turns']} turns" if mode == MODES[1] else "")
            + f"){note}\n"
        )
        print(quality_table(result["modes"][mode]))
    print(
        f"\n### latency per query, facts only, one agent/group ({dataset_size:,} = dataset "
        "average; larger sizes = the first conversation's facts plus copies suffixed "
        '" (copy n)", latency only)\n'
    )
    print(latency_table(latency, [n for n in LATENCY_RANKERS if n in latency[dataset_size]]))
    print(f"\n{load_line()}; total {result['seconds']:.0f} s")


if __name__ == "__main__":
    arguments = parse_args()
    figures = asyncio.run(main(arguments))
    if arguments.out:
        arguments.out.parent.mkdir(parents=True, exist_ok=True)
        arguments.out.write_text(json.dumps(figures, indent=2, default=str))
        print(f"figures written to {arguments.out}")
    sys.exit(0)
