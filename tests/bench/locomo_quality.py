"""Extraction quality against LoCoMo's gold ``observation`` facts (pure functions).

A stored fact comes from one or more turns (its FROM_EVENT provenance). It *matches* a gold
observation when the observation was extracted from one of those turns and their MiniLM cosine
is at least the threshold. Precision = share of stored facts matching some gold observation;
recall = share of gold observations matched by some stored fact.

The threshold is read off a control printed beside every sweep: the same facts scored against
the gold observations of a *different*, nearby turn of the same conversation (the third turn
with gold observations after the fact's turn). Those pairs share speaker, topic vocabulary and style but not the
proposition, so the control's precision is the rate at which the cosine "matches" by chance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["GoldObservation", "Quality", "StoredFact", "score", "sweep"]

THRESHOLDS = (0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80)


@dataclass
class GoldObservation:
    text: str
    dia_ids: set[str]
    vector: list[float] = field(default_factory=list, repr=False)


@dataclass
class StoredFact:
    text: str
    dia_ids: set[str]
    vector: list[float] = field(default_factory=list, repr=False)
    active: bool = True
    mirror: bool = False


@dataclass
class Quality:
    threshold: float
    precision: float
    recall: float
    control_precision: float
    control_recall: float


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def score(
    facts: Sequence[StoredFact],
    gold: Sequence[GoldObservation],
    turn_map: dict[str, str] | None = None,
) -> tuple[list[float], list[float]]:
    """Best cosine per fact (over gold observations of its turns) and per gold observation
    (over facts of its turns). ``turn_map`` re-labels a fact's turns first (the control)."""
    by_turn: dict[str, list[int]] = {}
    for j, g in enumerate(gold):
        for d in g.dia_ids:
            by_turn.setdefault(d, []).append(j)
    best_fact = [0.0] * len(facts)
    best_gold = [0.0] * len(gold)
    for i, f in enumerate(facts):
        dias = {turn_map.get(d, d) for d in f.dia_ids} if turn_map else f.dia_ids
        for j in {j for d in dias for j in by_turn.get(d, [])}:
            c = _cos(f.vector, gold[j].vector)
            best_fact[i] = max(best_fact[i], c)
            best_gold[j] = max(best_gold[j], c)
    return best_fact, best_gold


def shifted_turns(turns: Sequence[str], gold_turns: set[str], shift: int = 3) -> dict[str, str]:
    """Control mapping: each turn → the ``shift``-th turn with gold observations after it
    (wrapping), so every fact meets the gold of another, nearby turn of the conversation."""
    golden = [i for i, t in enumerate(turns) if t in gold_turns]
    if not golden:
        return {}
    out: dict[str, str] = {}
    for i, t in enumerate(turns):
        after = next((k for k, g in enumerate(golden) if g > i), 0)
        out[t] = turns[golden[(after + shift - 1) % len(golden)]]
    return out


def sweep(
    facts: Sequence[StoredFact],
    gold: Sequence[GoldObservation],
    control_map: dict[str, str],
    thresholds: Sequence[float] = THRESHOLDS,
) -> list[Quality]:
    """Precision/recall at each threshold, real pairing and control pairing."""
    bf, bg = score(facts, gold)
    cf, cg = score(facts, gold, control_map)
    out = []
    for t in thresholds:
        out.append(
            Quality(
                t,
                sum(v >= t for v in bf) / max(1, len(bf)),
                sum(v >= t for v in bg) / max(1, len(bg)),
                sum(v >= t for v in cf) / max(1, len(cf)),
                sum(v >= t for v in cg) / max(1, len(cg)),
            )
        )
    return out
