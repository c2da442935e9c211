"""Real text to write: the passages of the multi-hop corpora and the LoCoMo dev turns under
``shared/bench`` beside the repository (or beside a folder holding it, as for a worktree), as
(source, speaker, text) items. Shared by the
corpus sweep (``python -m tests.bench.sweep``) and its fixed-sample test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_REPO = Path(__file__).resolve().parents[2]
BENCH = next(
    (d / "shared" / "bench" for d in _REPO.parents if (d / "shared" / "bench").is_dir()),
    _REPO.parent / "shared" / "bench",
)
NARRATOR = "narrator"


@dataclass(frozen=True)
class Item:
    """One message to write: where it comes from, who says it, the text."""

    source: str
    speaker: str
    text: str


def musique(bench: Path = BENCH) -> Iterator[Item]:
    for i, doc in enumerate(json.loads((bench / "multihop/musique-corpus.json").read_text())):
        yield Item(f"musique#{i} {doc['title']}", NARRATOR, doc["text"])


def hotpotqa(bench: Path = BENCH) -> Iterator[Item]:
    corpus = json.loads((bench / "multihop/hotpotqa-corpus.json").read_text())
    for i, (title, sentences) in enumerate(corpus.items()):
        yield Item(f"hotpotqa#{i} {title}", NARRATOR, "".join(sentences))


def locomo(bench: Path = BENCH) -> Iterator[Item]:
    for conv in json.loads((bench / "locomo/locomo-dev.json").read_text()):
        sessions = conv["conversation"]
        for name in sorted(
            (k for k in sessions if k.startswith("session_") and not k.endswith("date_time")),
            key=lambda k: int(k.split("_")[1]),
        ):
            for turn in sessions[name]:
                yield Item(
                    f"locomo {conv['sample_id']} {turn['dia_id']}", turn["speaker"], turn["text"]
                )


CORPORA = {"musique": musique, "hotpotqa": hotpotqa, "locomo": locomo}


def recorded_extractions(
    bench: Path = BENCH, path: Path | None = None
) -> dict[str, dict[str, Any]]:
    """A real LLM's recorded extraction of the MuSiQue passages (HippoRAG's OpenIE: entity
    names and [subject, predicate, object] triples), mapped onto our informed-extraction
    answer and keyed by passage text: each triple becomes a fact about its subject and a
    relation of snake_case type; entities are typed "thing" (the recording has no types). ``path``: another recording of
    the same format (default: the MuSiQue one under ``bench``)."""
    path = path or bench / "multihop/musique-openie-gpt35.json"
    docs = json.loads(path.read_text())["docs"]
    out: dict[str, dict[str, Any]] = {}
    for doc in docs:
        triples = [
            t
            for t in doc["extracted_triples"]
            if isinstance(t, list) and len(t) == 3 and all(isinstance(x, str) for x in t)
        ]
        names = list(
            dict.fromkeys([*doc["extracted_entities"], *(x for t in triples for x in (t[0], t[2]))])
        )
        out[doc["text"]] = {
            "entities": [
                {"name": n, "type": "thing", "aliases": []}
                for n in names
                if isinstance(n, str) and n.strip()
            ],
            "facts": [
                {
                    "subject": s,
                    "text": f"{s} {p} {o}.",
                    "confidence": 0.9,
                    "action": "ADD",
                    "importance_category": "specific_event",
                    "kind": "fact",
                }
                for s, p, o in triples
            ],
            "relations": [
                {"source": s, "type": "_".join(p.lower().split()), "target": o}
                for s, p, o in triples
            ],
        }
    return out


def sample(
    every: int,
    bench: Path = BENCH,
    corpora: tuple[str, ...] = tuple(CORPORA),
    limit: int | None = None,
    offset: int = 0,
) -> list[Item]:
    """Every ``every``-th item of each corpus from the ``offset``-th on (deterministic: offsets
    0 to every-1 together cover each corpus once), at most ``limit`` per corpus."""
    out: list[Item] = []
    for name in corpora:
        picked = [item for i, item in enumerate(CORPORA[name](bench)) if i % every == offset]
        out += picked[:limit] if limit else picked
    return out
