"""Figures and tables of the peers benchmark (pure: no I/O). Tables are Markdown, so a run's
output can be pasted into the README as is."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tests.bench.locomo import KS, Metrics
from tests.bench.peers.fusion import percentile

BASE = "hippograph"


@dataclass
class RankerStats:
    """Evidence recall / MRR exactly as ``tests.bench.locomo.Metrics`` defines them, plus every
    per-query latency (for p50/p95)."""

    metrics: Metrics = field(default_factory=Metrics)
    ms: list[float] = field(default_factory=list)

    def add(
        self, ranked: list[str], dia_of: dict[str, set[str]], evidence: set[str], ms: float
    ) -> None:
        self.metrics.add(ranked, dia_of, evidence, ms)
        self.ms.append(ms)

    def add_latency(self, ms: float) -> None:
        self.ms.append(ms)

    def figures(self) -> dict[str, float]:
        n = self.metrics.n
        out: dict[str, float] = {"questions": n, "timed_queries": len(self.ms)}
        if n:
            out.update({f"recall@{k}": self.metrics.recall[k] / n for k in KS})
            out["mrr"] = self.metrics.rr / n
        out["p50_ms"] = percentile(self.ms, 50)
        out["p95_ms"] = percentile(self.ms, 95)
        return out


def ratio(a: float, b: float) -> float:
    return a / b if b and not math.isnan(a) and not math.isnan(b) else math.nan


def _cell(x: float, digits: int = 3) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def quality_table(figures: Mapping[str, Mapping[str, float]]) -> str:
    """One row per ranker: R@5/10/20, MRR, p50/p95 ms and hippograph/peer ratios (R@10, MRR,
    p50 ms; a latency ratio below 1 means Hippograph is faster)."""
    base = figures.get(BASE, {})
    lines = [
        "| ranker | R@5 | R@10 | R@20 | MRR | p50 ms | p95 ms "
        "| hippo/peer R@10 | hippo/peer MRR | hippo/peer p50 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, f in figures.items():
        r = (
            [
                ratio(base.get(key, math.nan), f.get(key, math.nan))
                for key in ("recall@10", "mrr", "p50_ms")
            ]
            if name != BASE
            else [math.nan] * 3
        )
        lines.append(
            f"| {name} | "
            + " | ".join(_cell(f.get(f"recall@{k}", math.nan)) for k in KS)
            + f" | {_cell(f.get('mrr', math.nan))} | {_cell(f['p50_ms'], 1)} "
            f"| {_cell(f['p95_ms'], 1)} | " + " | ".join(_cell(x, 2) for x in r) + " |"
        )
    return "\n".join(lines)


def repeated_figures(reps: Sequence[Mapping[str, RankerStats]]) -> dict[str, dict[str, float]]:
    """Each ranker's latency over repetitions: p50/p95 = the medians of the repetitions'
    p50/p95, with their min and max (``p50_min`` … ``p95_max``)."""
    out: dict[str, dict[str, float]] = {}
    for name in reps[0]:
        p50s = sorted(rep[name].figures()["p50_ms"] for rep in reps)
        p95s = sorted(rep[name].figures()["p95_ms"] for rep in reps)
        out[name] = {
            "p50_ms": percentile(p50s, 50),
            "p95_ms": percentile(p95s, 50),
            "p50_min": p50s[0],
            "p50_max": p50s[-1],
            "p95_min": p95s[0],
            "p95_max": p95s[-1],
            "repeats": len(reps),
        }
    return out


def latency_table(
    by_size: Mapping[int, Mapping[str, Mapping[str, float]]], rankers: Sequence[str]
) -> str:
    """Rows = facts per agent, columns = p50 / p95 ms per ranker (medians over repetitions, with
    the p95's min–max when repeated), then hippograph p95 / peer p95."""
    peers = [r for r in rankers if r != BASE]
    head = [
        "facts/agent",
        *(f"{r} p50 / p95 ms" for r in rankers),
        *(f"hippo/{r} p95" for r in peers),
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for size, row in sorted(by_size.items()):
        cells = [f"{size:,}"]
        for r in rankers:
            f = row.get(r)
            cell = f"{_cell(f['p50_ms'], 1)} / {_cell(f['p95_ms'], 1)}" if f else "—"
            if f and "p95_min" in f:  # repeated: the spread of p95 over the repetitions
                cell += f" (p95 {_cell(f['p95_min'], 0)}–{_cell(f['p95_max'], 0)})"
            cells.append(cell)
        base = row.get(BASE, {}).get("p95_ms", math.nan)
        for r in peers:
            cells.append(_cell(ratio(base, row[r]["p95_ms"]), 2) if r in row else "—")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
