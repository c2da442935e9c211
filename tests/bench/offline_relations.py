"""Offline relation extraction against an LLM's recorded triples (no network, no database).

    .venv/bin/python -m tests.bench.offline_relations \\
        --openie ../shared/bench/multihop/musique-openie-gpt35.json \\
        [--hotpotqa ../shared/bench/multihop/hotpotqa-corpus.json] \\
        [--locomo ../shared/bench/locomo/locomo-dev.json] [--limit N] [--json OUT]

The offline extractor (``extract_with``: spaCy parse, the verb pattern table and the open
relations of ``write.offline.relations``) runs on every passage of ``--openie`` (HippoRAG's OpenIE
format: ``docs`` = ``{title, text, extracted_triples}``) with the passage title as the speaker,
as document ingest does. Its relations are compared with the recorded triples of the same
passage at the level of pairs of ends — the predicate wording is free, as in the graph a walk
follows the edge whatever its type:

- an end is normalised: lowercased, accents and punctuation removed, articles ("the", "a",
  "an") and a possessive "s" after an apostrophe dropped, spaces collapsed;
- ``strict``: both ends equal after normalisation; ``relaxed``: each end equal to, or a whole-word
  part of, the other's ("Myrtle Beach" ~ "Myrtle Beach, South Carolina", "country singer" ~
  "American country singer");
- ``directed``: (source, target) must match (subject, object); ``undirected``: either order
  (our passive with an agent is stated actively: "X was written by Y" → Y wrote X, while the
  LLM keeps the sentence's order).

Precision = predicted pairs matching a gold pair of the passage / predicted pairs; recall =
gold pairs matched by a predicted pair / gold pairs (pairs deduplicated per passage, micro
averages). The extractor never makes a date a relation end (a year would be a hub), so the
undirected scores are also given against the gold pairs without a date end ("gold w/o dates"). Also printed: per construction precision, relations per passage, and passages/s for
one ``extract_with`` call per passage (the write path; also per second of the process's CPU
time, which a loaded machine does not change) and with ``nlp.pipe`` batches. Passages are
documents: common noun phrases may be relation ends (``noun_phrases=True``).
``--hotpotqa`` / ``--locomo`` report relations per passage / per conversation turn (no gold:
a sanity check). The data are read from the given paths and never copied.
"""

from __future__ import annotations

import argparse
import json
import re
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.memory.write.extract.offline.coref import Mentions
from graph.memory.write.extract.offline.extractor import extract_with, load_nlp, prepare
from graph.memory.write.extract.offline.relations import open_relations
from graph.progress import progress_bar

_ARTICLES = {"the", "a", "an"}
_DATE_WORDS = {
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "early",
    "late",
    "mid",
    "in",
    "on",
    "since",
    "from",
    "to",
    "until",
    "century",
    "bc",
    "ad",
    "s",
    "th",
    "st",
    "nd",
    "rd",
}


def is_date(end: str) -> bool:
    """A normalised end that is only a date ("1990", "april 25 1976", "1990s")."""
    words = end.split()
    return any(w[:1].isdigit() for w in words) and all(
        w.isdigit() or w in _DATE_WORDS or (w[:-1].isdigit() and w[-1] == "s") for w in words
    )


def norm(text: str) -> str:
    """An end as compared (see module docstring)."""
    text = unicodedata.normalize("NFKD", str(text).lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"['’]s\b", " ", text)
    words = re.findall(r"[^\W_]+", text)
    return " ".join(w for w in words if w not in _ARTICLES)


def _close(a: str, b: str) -> bool:
    if not a or not b:
        return False
    return a == b or f" {a} " in f" {b} " or f" {b} " in f" {a} "


def _pair_match(p: tuple[str, str], g: tuple[str, str], relaxed: bool, directed: bool) -> bool:
    same: Any = _close if relaxed else (lambda x, y: bool(x) and x == y)
    if same(p[0], g[0]) and same(p[1], g[1]):
        return True
    return not directed and same(p[0], g[1]) and same(p[1], g[0])


@dataclass
class Score:
    """Matched / total counts of one matching rule, micro-averaged over passages."""

    pred_hit: int = 0
    pred: int = 0
    gold_hit: int = 0
    gold: int = 0

    def add(
        self,
        preds: list[tuple[str, str]],
        golds: list[tuple[str, str]],
        relaxed: bool,
        directed: bool,
    ) -> list[bool]:
        hits = [any(_pair_match(p, g, relaxed, directed) for g in golds) for p in preds]
        self.pred_hit += sum(hits)
        self.pred += len(preds)
        self.gold_hit += sum(
            any(_pair_match(p, g, relaxed, directed) for p in preds) for g in golds
        )
        self.gold += len(golds)
        return hits

    @property
    def precision(self) -> float:
        return self.pred_hit / self.pred if self.pred else 0.0

    @property
    def recall(self) -> float:
        return self.gold_hit / self.gold if self.gold else 0.0


@dataclass
class Report:
    scores: dict[str, Score] = field(
        default_factory=lambda: {
            f"{m}/{d}": Score() for m in ("strict", "relaxed") for d in ("directed", "undirected")
        }
    )
    # The same, against the gold pairs without a date end (dates are never relation ends).
    dateless: dict[str, Score] = field(
        default_factory=lambda: {f"{m}/undirected": Score() for m in ("strict", "relaxed")}
    )
    by_construction: dict[str, list[int]] = field(default_factory=dict)
    by_ends: dict[str, list[int]] = field(default_factory=dict)
    by_confidence: dict[float, list[int]] = field(default_factory=dict)
    passages: int = 0
    relations: int = 0
    dangling: int = 0


def score_passage(
    report: Report,
    relations: list[tuple[str, str, str, float]],
    triples: list[list[Any]],
    aliases: dict[str, list[str]] | None = None,
) -> None:
    """Add one passage: ``relations`` = (source, target, construction, confidence);
    ``aliases``: other names of an end (an entity matches the gold by any of its names)."""
    golds = list(
        dict.fromkeys(
            (norm(t[0]), norm(t[2])) for t in triples if isinstance(t, list) and len(t) == 3
        )
    )
    preds: dict[tuple[str, str], tuple[str, float]] = {}
    for s, o, construction, conf in relations:
        key = (norm(s), norm(o))
        if key not in preds or preds[key][1] < conf:
            preds[key] = (construction, conf)
    keys = list(preds)
    if aliases:  # an end known under several names matches by any of them
        names = {norm(k): [norm(a) for a in v] for k, v in aliases.items()}
        golds = [_canonical(g, names) for g in golds]
    report.passages += 1
    report.relations += len(relations)
    dateless = [g for g in golds if not is_date(g[0]) and not is_date(g[1])]
    for name, score in report.dateless.items():
        score.add(keys, dateless, name.startswith("relaxed"), False)
    for name, score in report.scores.items():
        hits = score.add(keys, golds, name.startswith("relaxed"), name.endswith("/directed"))
        if name == "relaxed/undirected":
            for key, hit in zip(keys, hits, strict=True):
                construction, conf = preds[key]
                for table, label in (
                    (report.by_construction, construction.split(":")[0]),
                    (report.by_ends, construction.partition(":")[2]),
                ):
                    row = table.setdefault(label or "pattern", [0, 0])
                    row[0] += hit
                    row[1] += 1
                for level in (0.4, 0.5, 0.6, 0.7):
                    if conf >= level:
                        crow = report.by_confidence.setdefault(level, [0, 0])
                        crow[0] += hit
                        crow[1] += 1


def _canonical(pair: tuple[str, str], names: dict[str, list[str]]) -> tuple[str, str]:
    """A gold pair with each end replaced by the entity name it is an alias of."""

    def one(end: str) -> str:
        return next(
            (
                name
                for name, alts in names.items()
                if any(_close(end, a) for a in alts) and not _close(end, name)
            ),
            end,
        )

    return one(pair[0]), one(pair[1])


def _constructions(nlp: Any, doc: Any, ex: Any, speaker: str) -> dict[tuple[str, str], str]:
    """Which construction produced each extracted relation ("pattern": the verb table)."""
    from graph.memory.write.extract.offline.names import (
        MessageNames,  # the extractor's entity spans
    )

    state = MessageNames(doc, speaker)
    state.name_speaker(doc)
    state.merge_short_names()
    found = open_relations(
        doc, Mentions(state.by_token, state.types, speaker, None), noun_phrases=True
    )
    return {
        (r.source.name, r.target.name): f"{r.construction}:{r.source.kind}-{r.target.kind}"
        for r in found
    }


def run_openie(path: str, limit: int | None, report: Report) -> tuple[float, float, float]:
    """Score every passage; returns passages/s with one call each (wall clock), the same per
    second of this process's CPU time (what the machine's load does not change), and with
    nlp.pipe batches (wall clock)."""
    nlp = load_nlp()
    docs = [
        d
        for d in json.loads(Path(path).read_text(encoding="utf-8"))["docs"]
        if d.get("extracted_triples")
    ][:limit]
    t0, c0 = time.perf_counter(), time.process_time()
    extractions = []
    for d in progress_bar(docs, desc="extract (one call per passage)"):
        extractions.append(extract_with(nlp, d["text"], d["title"], noun_phrases=True))
    single = len(docs) / (time.perf_counter() - t0)
    single_cpu = len(docs) / max(1e-9, time.process_time() - c0)
    t0 = time.perf_counter()
    parsed = list(nlp.pipe((prepare(d["text"]) for d in docs), batch_size=64))
    for d, doc in zip(docs, parsed, strict=True):
        extract_with(nlp, d["text"], d["title"], doc=doc, noun_phrases=True)
    piped = len(docs) / (time.perf_counter() - t0)
    for d, doc, ex in zip(docs, parsed, extractions, strict=True):
        names = {e.name for e in ex.entities} | {d["title"]}
        report.dangling += sum(r.source not in names or r.target not in names for r in ex.relations)
        kinds = _constructions(nlp, doc, ex, d["title"])
        rels = [
            (r.source, r.target, kinds.get((r.source, r.target), "pattern"), r.confidence)
            for r in ex.relations
        ]
        score_passage(
            report,
            rels,
            d["extracted_triples"],
            {e.name: e.aliases for e in ex.entities if e.aliases},
        )
    return single, single_cpu, piped


def relations_per_text(texts: list[tuple[str, str]], desc: str) -> tuple[float, Counter[str]]:
    """Mean relations per text (speaker, text) and the most common relation types."""
    nlp = load_nlp()
    total, types = 0, Counter[str]()
    for speaker, text in progress_bar(texts, desc=desc):
        rels = extract_with(nlp, text, speaker).relations
        total += len(rels)
        types.update(r.type for r in rels)
    return (total / len(texts) if texts else 0.0), types


def _hotpot(path: str, limit: int | None) -> list[tuple[str, str]]:
    corpus = json.loads(Path(path).read_text(encoding="utf-8"))
    return [(title, " ".join(s.strip() for s in sents)) for title, sents in corpus.items()][:limit]


def _locomo(path: str, limit: int | None) -> list[tuple[str, str]]:
    turns = []
    for sample in json.loads(Path(path).read_text(encoding="utf-8")):
        conv = sample["conversation"]
        for key, value in conv.items():
            if key.startswith("session_") and isinstance(value, list):
                turns += [(t["speaker"], t["text"]) for t in value]
    return turns[:limit]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openie", required=True, help="HippoRAG OpenIE file (docs with triples)")
    ap.add_argument("--hotpotqa", help="HotpotQA corpus (title → sentences), no gold")
    ap.add_argument("--locomo", help="LoCoMo conversations, no gold")
    ap.add_argument("--limit", type=int, help="first N passages / turns of each file")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args(argv)
    report = Report()
    single, single_cpu, piped = run_openie(args.openie, args.limit, report)
    out: dict[str, Any] = {
        "passages": report.passages,
        "relations_per_passage": report.relations / max(1, report.passages),
        "passages_per_s": round(single, 1),
        "passages_per_cpu_s": round(single_cpu, 1),
        "passages_per_s_pipe": round(piped, 1),
        "dangling_ends": report.dangling,
        "scores": {},
    }
    print(
        f"\n{report.passages} passages, {out['relations_per_passage']:.2f} relations/passage, "
        f"{single:.1f} passages/s (one call each; {single_cpu:.1f} per CPU second), "
        f"{piped:.1f} passages/s (nlp.pipe), "
        f"{report.dangling} relation ends not among the returned entities"
    )
    print(f"{'match':<22}{'precision':>10}{'recall':>8}{'pred':>8}{'gold':>8}")
    for name, sc in report.scores.items():
        print(f"{name:<22}{sc.precision:>10.3f}{sc.recall:>8.3f}{sc.pred:>8}{sc.gold:>8}")
        out["scores"][name] = {"precision": round(sc.precision, 4), "recall": round(sc.recall, 4)}
    for name, sc in report.dateless.items():
        label = f"{name.split('/')[0]}, no dates"  # undirected, gold pairs without a date
        print(f"{label:<22}{sc.precision:>10.3f}{sc.recall:>8.3f}{sc.pred:>8}{sc.gold:>8}")
        out["scores"][f"{name}/dateless_gold"] = {
            "precision": round(sc.precision, 4),
            "recall": round(sc.recall, 4),
        }
    print("precision by construction (relaxed/undirected):")
    for name, (hit, n) in sorted(report.by_construction.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:<14}{hit / n:>7.3f}  ({n} pairs)")
    print("precision by the kinds of the ends (relaxed/undirected):")
    for name, (hit, n) in sorted(report.by_ends.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:<22}{hit / n:>7.3f}  ({n} pairs)")
    print("precision by minimum confidence (relaxed/undirected):")
    for level, (hit, n) in sorted(report.by_confidence.items()):
        print(f"  >= {level:<10}{hit / n:>7.3f}  ({n} pairs)")
    for flag, loader, desc in (
        (args.hotpotqa, _hotpot, "hotpotqa passages"),
        (args.locomo, _locomo, "locomo turns"),
    ):
        if flag:
            mean, types = relations_per_text(loader(flag, args.limit), desc)
            print(f"{desc}: {mean:.2f} relations each; top types {types.most_common(12)}")
            out[desc.replace(" ", "_")] = round(mean, 3)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
