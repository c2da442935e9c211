"""LoCoMo end to end: every turn through the real write pipeline, then extraction quality and
evidence recall beside the gold-observation mode.

    .venv/bin/python -m tests.bench.locomo_pipeline ../shared/bench/locomo/locomo-dev.json \
        [--conversations N] [--turns N] [--threshold T] [--examples FILE] [--extract-only]
        [--scripted-llm [--graphiti] [--graphiti-ports BOLT,HTTP]]

Offline extractor by default; the OpenAI-compatible endpoint of the settings when
``HIPPOGRAPH_LLM_BASE_URL`` is set. For every conversation (bounded by ``--conversations`` and
``--turns`` per conversation) each turn is written in order with its session date as
``occurred_at``, its speaker as ``speaker_name`` and the five previous turns ('Speaker: text') as
``recent_messages``. Then:

- extraction quality vs the gold ``observation`` facts (see ``locomo_quality``): threshold sweep
  with a shifted-turn control, precision, recall, facts per turn, share of turns with no fact;
  the 20 worst examples of each kind go to ``--examples`` (default /tmp/locomo_pipeline_examples.txt);
- evidence recall@5/10/20 + MRR of ``retrieve`` (offline, no rerank) where a fact counts through
  its provenance (FROM_EVENT → event → turn dia_id), beside the gold mode (observations imported
  with ``remember`` as ``tests.bench.locomo`` does), and pipeline R@10 ÷ gold R@10;
- time per message, LLM calls, prompt/completion tokens and Neo4j round trips per message.

``--scripted-llm`` runs the LLM path against a scripted OpenAI-compatible endpoint on loopback
(``tests.bench.scripted_endpoint``: the offline extractor's output served as the model's answer)
and prints LLM calls, prompt characters and tokens per message; ``--graphiti`` also sends the
same turns through Graphiti's ``add_episode`` (own venv, own throw-away Neo4j on
``--graphiti-ports``, default 28687,28474) pointed at the same endpoint, and prints the ratio
(``tests.bench.llm_cost``).

``--extract-only`` skips Neo4j: it runs the offline extractor on every turn and reports the
quality part only (fast iteration; the pipeline's reconciliation and dedup are not applied).
The dataset is CC BY-NC: read from the given path, never copied.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from neo4j.exceptions import TransientError

from graph.agent_deletion import delete_agent
from graph.errors import GraphUnavailable
from graph.executor import Executor, connect
from graph.memory.read import Retriever
from graph.memory.remember import remember
from graph.memory.write import StructuredEntity, WritePipeline
from graph.progress import progress_bar
from graph.providers import MiniLMEmbedder
from graph.providers.embedders import find_tokenizer
from graph.schema import ensure_schema
from server.composition import build_llm
from server.settings import Settings
from tests.bench.llm_cost import graphiti_episodes, print_cost_table
from tests.bench.locomo import (
    KS,
    CachedEmbedder,
    Metrics,
    evidence_ids,
    hippograph,
    load_conversation,
    parse_session_date,
)
from tests.bench.locomo_quality import GoldObservation, StoredFact, shifted_turns, sweep
from tests.bench.scripted_endpoint import ScriptedEndpoint
from tests.cypher import load_query
from tests.fakes import RecordingExecutor

RECENT = 5
DEFAULT_THRESHOLD = 0.60


@dataclass
class Turn:
    dia_id: str  # conversation-qualified ("conv-26/D1:3"): dia ids repeat across conversations
    speaker: str
    text: str
    when: datetime

    @property
    def dia(self) -> str:
        return self.dia_id.rsplit("/", 1)[-1]


@dataclass
class Stats:
    ms: list[float] = field(default_factory=list)
    round_trips: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    failures: int = 0


def _bar(iterable: Any = None, **kw: Any) -> Any:
    return progress_bar(iterable, disable=not sys.stderr.isatty(), **kw)


def turns_of(sample: dict[str, Any], limit: int | None) -> list[Turn]:
    conv = sample["conversation"]
    sessions = sorted(
        (int(m.group(1)), k)
        for k in conv
        if (m := re.fullmatch(r"session_(\d+)", k)) and isinstance(conv[k], list)
    )
    out: list[Turn] = []
    for _, key in sessions:
        when = parse_session_date(conv[f"{key}_date_time"])
        for i, turn in enumerate(conv[key]):
            text = turn["text"]
            if turn.get("blip_caption"):  # same text as the gold mode's events
                text += f" [shares a photo: {turn['blip_caption']}]"
            out.append(
                Turn(
                    f"{sample['sample_id']}/{turn['dia_id']}",
                    turn["speaker"],
                    text,
                    when + timedelta(seconds=i),
                )
            )
    return out[:limit]


def gold_of(sample: dict[str, Any], dias: set[str]) -> list[GoldObservation]:
    """Gold observations from the given (conversation-qualified) turns."""
    out = []
    for per_speaker in sample["observation"].values():
        for items in per_speaker.values():
            for text, dia in items:
                ids = {
                    f"{sample['sample_id']}/{d}"
                    for d in evidence_ids(dia if isinstance(dia, list) else [dia])
                } & dias
                if ids:
                    out.append(GoldObservation(text, ids))
    return out


async def write_turns(
    pipe: WritePipeline,
    rec: RecordingExecutor,
    agent: str,
    turns: list[Turn],
    stats: Stats,
    bar: Any,
) -> dict[str, str]:
    """Every turn through the pipeline in order; returns event id → dia id."""
    dia_of_event: dict[str, str] = {}
    recent: list[str] = []
    for turn in turns:
        before = rec.round_trips
        t = time.perf_counter()
        res = await _retrying(
            lambda turn=turn: pipe.write(
                agent,
                turn.text,
                turn.speaker,
                recent_messages=recent[-RECENT:],
                occurred_at=turn.when,
            )
        )
        stats.ms.append((time.perf_counter() - t) * 1000)
        stats.round_trips += rec.round_trips - before
        stats.llm_calls += res.llm_calls
        stats.prompt_tokens += res.tokens_used.input
        stats.completion_tokens += res.tokens_used.output
        stats.failures += not res.success
        if res.event_id:
            dia_of_event[res.event_id] = turn.dia_id
        recent.append(f"{turn.speaker}: {turn.text}")
        bar.update(1)
    return dia_of_event


async def stored_facts(ex: Executor, agent: str, dia_of_event: dict[str, str]) -> list[StoredFact]:
    rows = await ex.run_text(load_query("read_fact_provenance"), {"agent_id": agent}, read=True)
    return [
        StoredFact(
            r["text"],
            {dia_of_event[e] for e in r["event_ids"] if e in dia_of_event},
            active=r["active"],
            mirror=r["mirror"],
        )
        for r in rows
    ]


def extract_only(turns: list[Turn]) -> list[StoredFact]:
    from graph.memory.write.extract.extraction import normalize_extraction
    from graph.memory.write.extract.offline import extract_with, load_nlp

    nlp = load_nlp()
    out: list[StoredFact] = []
    recent: list[str] = []
    for turn in _bar(turns, desc="extract", unit="turn"):
        ex = normalize_extraction(
            extract_with(nlp, turn.text, turn.speaker, recent[-RECENT:]), turn.speaker
        )
        out += [StoredFact(f.text, {turn.dia_id}) for f in ex.facts]
        recent.append(f"{turn.speaker}: {turn.text}")
    return out


def report_quality(
    facts: list[StoredFact],
    gold: list[GoldObservation],
    turns: list[Turn],
    threshold: float,
    examples: str,
    dump: str | None = None,
) -> None:
    control = shifted_turns([t.dia_id for t in turns], {d for g in gold for d in g.dia_ids})
    print(
        "\nThreshold sweep (control: each fact scored against the gold of another turn, the "
        "third gold-bearing turn after its own):"
    )
    print(
        f"{'cosine>=':>8} {'precision':>9} {'recall':>7} {'ctl prec':>9} {'ctl rec':>8} "
        f"{'J prec':>7} {'J rec':>7}"
    )
    for q in sweep(facts, gold, control):
        mark = "  <- used" if abs(q.threshold - threshold) < 1e-9 else ""
        print(
            f"{q.threshold:8.2f} {q.precision:9.3f} {q.recall:7.3f} {q.control_precision:9.3f} "
            f"{q.control_recall:8.3f} {q.precision - q.control_precision:7.3f} "
            f"{q.recall - q.control_recall:7.3f}{mark}"
        )
    print(
        "J = real minus control: the share of matches not explained by chance; the threshold "
        "is where J peaks"
    )
    q = sweep(facts, gold, control, (threshold,))[0]
    per_turn: dict[str, int] = {}
    for f in facts:
        for d in f.dia_ids:
            per_turn[d] = per_turn.get(d, 0) + 1
    empty = sum(1 for t in turns if not per_turn.get(t.dia_id))
    print(
        f"\nExtraction quality at cosine >= {threshold:.2f}: precision {q.precision:.3f}, "
        f"recall {q.recall:.3f}; {len(facts)} facts ({sum(f.mirror for f in facts)} relation "
        f"mirrors, {sum(not f.active for f in facts)} no longer active) from {len(turns)} "
        f"turns = {len(facts) / max(1, len(turns)):.2f} facts/turn; turns with no fact "
        f"{empty / max(1, len(turns)):.3f}; {len(gold)} gold observations"
    )
    print(f"{'conversation':<14} {'precision':>9} {'recall':>7} {'facts/turn':>10}")
    for conv in sorted({t.dia_id.split("/", 1)[0] for t in turns}):
        mine = [f for f in facts if any(d.startswith(conv + "/") for d in f.dia_ids)]
        theirs = [g for g in gold if any(d.startswith(conv + "/") for d in g.dia_ids)]
        n_turns = sum(t.dia_id.startswith(conv + "/") for t in turns)
        qc = sweep(mine, theirs, control, (threshold,))[0]
        print(
            f"{conv:<14} {qc.precision:9.3f} {qc.recall:7.3f} {len(mine) / max(1, n_turns):10.2f}"
        )
    write_examples(facts, gold, turns, examples)
    if dump:
        with open(dump, "w", encoding="utf-8") as fh:
            json.dump(
                [
                    {
                        "text": f.text,
                        "dia_ids": sorted(f.dia_ids),
                        "active": f.active,
                        "mirror": f.mirror,
                    }
                    for f in facts
                ],
                fh,
                indent=0,
            )


def write_examples(
    facts: list[StoredFact], gold: list[GoldObservation], turns: list[Turn], path: str
) -> None:
    from tests.bench.locomo_quality import score

    text_of = {t.dia_id: f"{t.speaker}: {t.text}" for t in turns}
    bf, bg = score(facts, gold)
    gold_by_turn: dict[str, list[str]] = {}
    for g in gold:
        for d in g.dia_ids:
            gold_by_turn.setdefault(d, []).append(g.text)
    facts_by_turn: dict[str, list[str]] = {}
    for f in facts:
        for d in f.dia_ids:
            facts_by_turn.setdefault(d, []).append(f.text)

    def spread(order: list[int], n: int = 20) -> list[int]:  # the worst, spread over the run
        worst = order[: max(n, len(order) // 5)]
        step = max(1, len(worst) // n)
        return sorted(worst[::step][:n])

    with open(path, "w", encoding="utf-8") as fh:
        fh.write(
            "# 20 stored facts with the lowest best cosine to a gold observation of their "
            "turn (false positives)\n\n"
        )
        for i in spread(sorted(range(len(facts)), key=lambda i: bf[i])):
            f = facts[i]
            d = sorted(f.dia_ids)[0] if f.dia_ids else "?"
            fh.write(
                f"[{d}] cos {bf[i]:.2f} FACT: {f.text}\n  TURN: {text_of.get(d, '?')}\n"
                f"  GOLD: {gold_by_turn.get(d, [])}\n\n"
            )
        fh.write(
            "# 20 gold observations with the lowest best cosine to a stored fact of their "
            "turn (misses)\n\n"
        )
        for j in spread(sorted(range(len(gold)), key=lambda j: bg[j])):
            g = gold[j]
            d = sorted(g.dia_ids)[0]
            fh.write(
                f"[{d}] cos {bg[j]:.2f} GOLD: {g.text}\n  TURN: {text_of.get(d, '?')}\n"
                f"  FACTS: {facts_by_turn.get(d, [])}\n\n"
            )
    print(f"worst examples written to {path}")


async def _retrying(make: Any, attempts: int = 6) -> Any:
    """Await ``make()``, retrying when the shared Neo4j is briefly out of transaction memory."""
    for attempt in range(attempts):
        try:
            return await make()
        except (TransientError, GraphUnavailable):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(2.0 * (attempt + 1))
    return None


async def evaluate(
    retriever: Retriever, items: list[tuple[str, dict[str, set[str]], list[dict[str, Any]]]]
) -> Metrics:
    m = Metrics()
    for agent, dia_of, questions in items:
        for q in questions:
            evidence = evidence_ids(q["evidence"])
            if evidence:
                t = time.perf_counter()
                ranked = await _retrying(
                    lambda q=q, agent=agent: hippograph(retriever, agent, q["question"])
                )
                m.add(
                    ranked, dia_of, evidence, (time.perf_counter() - t) * 1000, conv=_conv_of(agent)
                )
    return m


def _conv_of(agent: str) -> str:
    """The LoCoMo sample id in a benchmark agent id ("bench-locomo-pipe-conv-26-ab12cd",
    "bench-locomo-conv-26-gold-ab12cd")."""
    m = re.fullmatch(r"bench-locomo-(?:pipe-)?(.+?)(?:-gold)?-[0-9a-f]{6}", agent)
    return m.group(1) if m else agent


async def main(args: argparse.Namespace) -> None:
    if args.graphiti and not args.scripted_llm:
        raise SystemExit("--graphiti needs --scripted-llm (both talk to the scripted endpoint)")
    if not args.scripted_llm:
        await _main(args, None)
        return
    with ScriptedEndpoint() as endpoint:
        await _main(args, endpoint)


async def _main(args: argparse.Namespace, endpoint: ScriptedEndpoint | None) -> None:
    settings = Settings()
    if endpoint is not None:
        settings = settings.model_copy(
            update={"llm_base_url": endpoint.base_url("hippograph"), "llm_max_retries": 0}
        )
    with open(args.path, encoding="utf-8") as fh:
        samples = json.load(fh)[: args.conversations]
    convs = [(s, turns_of(s, args.turns)) for s in samples]
    all_turns = [t for _, ts in convs for t in ts]
    gold = [g for s, ts in convs for g in gold_of(s, {t.dia_id for t in ts})]
    embedder = CachedEmbedder(MiniLMEmbedder(find_tokenizer(settings.home)))
    print(
        f"load average {os.getloadavg()[0]:.1f}; {len(convs)} conversations, "
        f"{len(all_turns)} turns, {len(gold)} gold observations"
    )
    if args.extract_only:
        facts = extract_only(all_turns)
        await _embed(embedder, facts, gold)
        report_quality(facts, gold, all_turns, args.threshold, args.examples, args.dump)
        return
    llm = build_llm(settings)
    ex = connect(
        settings.bolt_uri, settings.neo4j_user, settings.neo4j_secret(), settings.neo4j_database
    )
    await ensure_schema(ex, embedder.dimensions)
    rec = RecordingExecutor(ex)
    pipe = WritePipeline(rec, embedder, llm)
    run = uuid.uuid4().hex[:6]
    stats = Stats()
    agents: list[str] = []
    pipe_items, gold_items = [], []
    facts: list[StoredFact] = []
    started = time.perf_counter()
    try:
        with _bar(
            total=len(all_turns), desc=f"write ({'llm' if llm else 'offline'})", unit="turn"
        ) as bar:
            for sample, turns in convs:
                agent = f"bench-locomo-pipe-{sample['sample_id']}-{run}"
                agents.append(agent)
                dia_of_event = await write_turns(pipe, rec, agent, turns, stats, bar)
                conv_facts = await stored_facts(ex, agent, dia_of_event)
                facts += conv_facts
                dias = {t.dia for t in turns}
                questions = [
                    q
                    for q in sample["qa"]
                    if q["category"] in (1, 2, 3, 4) and evidence_ids(q["evidence"]) <= dias
                ]
                raw = {e: d.rsplit("/", 1)[-1] for e, d in dia_of_event.items()}
                dia_of: dict[str, set[str]] = {e: {d} for e, d in raw.items()}
                rows = await ex.run_text(
                    load_query("read_fact_provenance"), {"agent_id": agent}, read=True
                )
                for r in rows:
                    dia_of[r["id"]] = {raw[e] for e in r["event_ids"] if e in raw}
                pipe_items.append((agent, dia_of, questions))
                gc = load_conversation(sample, f"gold-{run}")
                keep = {e.id for e in gc.events if gc.dia_of[e.id or ""] <= dias}
                gc.events = [e for e in gc.events if e.id in keep]
                gc.facts = [f for f in gc.facts if gc.dia_of[f.id or ""] & dias]
                agents.append(gc.agent_id)
                await remember(
                    ex,
                    embedder,
                    gc.agent_id,
                    facts=gc.facts,
                    events=gc.events,
                    entities=[StructuredEntity(s, "person") for s in gc.speakers],
                )
                gold_items.append((gc.agent_id, gc.dia_of, questions))
        write_s = time.perf_counter() - started
        graphiti_ms: list[float] = []
        if endpoint is not None and args.graphiti:
            ports = tuple(int(p) for p in args.graphiti_ports.split(","))
            with _bar(total=len(all_turns), desc="graphiti add_episode", unit="turn") as bar:
                graphiti_ms = await graphiti_episodes(
                    endpoint,
                    settings.home,
                    [(s["sample_id"], ts) for s, ts in convs],
                    RECENT,
                    (ports[0], ports[1]),
                    bar,
                )
        await _embed(embedder, facts, gold)
        report_quality(facts, gold, all_turns, args.threshold, args.examples, args.dump)
        n = max(1, len(stats.ms))
        print(
            f"\nPer message ({len(stats.ms)} messages, {stats.failures} failed; load average "
            f"{os.getloadavg()[0]:.1f}): median {statistics.median(stats.ms or [0]):.0f} ms, "
            f"mean {sum(stats.ms) / n:.0f} ms; Neo4j round trips {stats.round_trips / n:.2f}; "
            f"LLM calls {stats.llm_calls / n:.2f}; prompt tokens {stats.prompt_tokens / n:.0f}; "
            f"completion tokens {stats.completion_tokens / n:.0f}; write phase {write_s:.0f} s"
        )
        if endpoint is not None:
            print_cost_table(
                endpoint, len(stats.ms), {"hippograph": stats.ms, "graphiti": graphiti_ms}
            )
        retriever = Retriever(ex, embedder)
        n_q = sum(len(q) for _, _, q in pipe_items)
        print(
            f"\nEvidence recall of retrieve (offline, no rerank), {n_q} questions of "
            f"categories 1-4 whose evidence lies in the written turns"
        )
        print(f"{'mode':<10} {'R@5':>7} {'R@10':>7} {'R@20':>7} {'MRR':>7} {'ms/q':>7}")
        results = {}
        for name, items in (("pipeline", pipe_items), ("gold", gold_items)):
            m = await evaluate(retriever, items)
            results[name] = m
            n = max(1, m.n)
            print(
                f"{name:<10} "
                + " ".join(f"{m.recall[k] / n:7.3f}" for k in KS)
                + f" {m.rr / n:7.3f} {m.ms / n:7.1f}"
            )
        p10, g10 = results["pipeline"].recall[10], results["gold"].recall[10]
        print(f"pipeline R@10 / gold R@10 = {p10 / g10 if g10 else float('nan'):.3f}")
        pm, gm = results["pipeline"], results["gold"]
        print(
            f"\n{'conversation':<14} {'questions':>9} {'pipe R@10':>9} {'gold R@10':>9} "
            f"{'ratio':>6}"
        )
        for conv in sorted(pm.per_conv):
            p, g = pm.conv_r10(conv), gm.conv_r10(conv)
            print(
                f"{conv:<14} {int(pm.per_conv[conv][1]):>9} {p:9.3f} {g:9.3f} "
                f"{p / g if g else float('nan'):6.3f}"
            )
        if getattr(args, "keep", None):
            with open(args.keep, "w", encoding="utf-8") as fh:
                json.dump(
                    {
                        name: [(a, {k: sorted(v) for k, v in d.items()}, q) for a, d, q in items]
                        for name, items in (("pipeline", pipe_items), ("gold", gold_items))
                    },
                    fh,
                )
            print(
                f"agents kept, described in {args.keep} (delete them with `hippograph` "
                f"admin or a later run without --keep)"
            )
            agents = []
    finally:
        for agent in agents:
            await delete_agent(ex, agent)
        await ex.close()


async def _embed(
    embedder: CachedEmbedder, facts: list[StoredFact], gold: list[GoldObservation]
) -> None:
    vecs = await embedder.embed([f.text for f in facts] + [g.text for g in gold])
    for item, vec in zip([*facts, *gold], vecs, strict=True):
        item.vector = vec


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="locomo JSON (e.g. ../shared/bench/locomo/locomo-dev.json)")
    parser.add_argument("--conversations", type=int, default=None)
    parser.add_argument("--turns", type=int, default=None, help="per conversation")
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--examples", default="/tmp/locomo_pipeline_examples.txt")
    parser.add_argument("--extract-only", action="store_true")
    parser.add_argument("--dump", default=None, help="write the stored facts (JSON) here")
    parser.add_argument(
        "--keep",
        default=None,
        metavar="FILE",
        help="keep the written agents and describe them (ids, questions) here",
    )
    parser.add_argument(
        "--scripted-llm",
        action="store_true",
        help="LLM path against the scripted loopback endpoint; print LLM cost",
    )
    parser.add_argument(
        "--graphiti",
        action="store_true",
        help="with --scripted-llm: Graphiti add_episode cost on the same turns",
    )
    parser.add_argument(
        "--graphiti-ports",
        default="28687,28474",
        help="bolt,http ports of Graphiti's throw-away Neo4j",
    )
    asyncio.run(main(parser.parse_args()))
