"""Real text to write: the passages of the multi-hop corpora and the LoCoMo dev turns under
``../shared/bench`` (beside the repository), as (source, speaker, text) items. Shared by the
corpus sweep (``python -m tests.bench.sweep``) and its fixed-sample test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2].parent / "shared" / "bench"
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
        for name in sorted((k for k in sessions if k.startswith("session_")
                            and not k.endswith("date_time")),
                           key=lambda k: int(k.split("_")[1])):
            for turn in sessions[name]:
                yield Item(f"locomo {conv['sample_id']} {turn['dia_id']}", turn["speaker"],
                           turn["text"])


CORPORA = {"musique": musique, "hotpotqa": hotpotqa, "locomo": locomo}


def sample(every: int, bench: Path = BENCH, corpora: tuple[str, ...] = tuple(CORPORA),
           limit: int | None = None) -> list[Item]:
    """Every ``every``-th item of each corpus (deterministic), at most ``limit`` per corpus."""
    out: list[Item] = []
    for name in corpora:
        picked = [item for i, item in enumerate(CORPORA[name](bench)) if i % every == 0]
        out += picked[:limit] if limit else picked
    return out
