"""The scripted extraction of the bilingual benchmark's LLM mode (pure): what a model that keeps
the abstract's language and glosses its facts in English would answer for one Pirá abstract.

Facts: the abstract's sentences (split at ., ! or ? before a capital, a digit or a bracket), in
its own language, at most ``max_facts`` (the write's cap, 20): a longer abstract's sentences are
grouped, consecutive ones together, into that many facts. Each fact is about one entity per
abstract ("Abstract <n>", type ``document``: the abstracts have no title to name them by).
Glosses: a fact of a Portuguese abstract gets the human English version of the same abstract
(``pira-corpus-en.json``, matched by ``title``), aligned by position: the English sentences at
the same relative place (sentence for sentence when both have as many, 212 of the 238
abstracts; otherwise the span of English sentences proportional to the fact's span). An English
abstract's facts get no gloss. So the gloss is the translation a model would write for that
sentence, taken from the dataset's own translation instead of a model's.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["aligned_glosses", "answer", "fact_groups", "recorded", "sentences"]

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý0-9(\[])")


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` in order (a split at sentence ends before an upper-case
    letter, a digit or a bracket)."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


def fact_groups(count: int, max_facts: int) -> list[tuple[int, int]]:
    """``count`` sentences as at most ``max_facts`` consecutive spans ``[start, end)``, as even
    as can be."""
    groups = min(count, max_facts)
    bounds = [round(i * count / groups) for i in range(groups + 1)] if groups else [0]
    return [(bounds[i], bounds[i + 1]) for i in range(groups)]


def aligned_glosses(
    spans: list[tuple[int, int]], count: int, english: list[str]
) -> list[str | None]:
    """The English sentences at each span's relative place (``count``: the original's
    sentences): one for one when the counts match, at least one sentence per span."""
    if not english or count == 0:
        return [None for _ in spans]
    out: list[str | None] = []
    for start, end in spans:
        lo = min(len(english) - 1, round(start * len(english) / count))
        hi = max(lo + 1, round(end * len(english) / count))
        out.append(" ".join(english[lo:hi]))
    return out


def answer(idx: int, text: str, english: str | None, max_facts: int = 20) -> dict[str, Any]:
    """The informed extraction's answer for abstract ``idx``: its sentences as facts about
    "Abstract <idx>", glossed from ``english`` (None: no gloss, an English abstract)."""
    subject = f"Abstract {idx}"
    parts = sentences(text)
    spans = fact_groups(len(parts), max_facts)
    glosses = (
        aligned_glosses(spans, len(parts), sentences(english))
        if english is not None
        else [None for _ in spans]
    )
    facts = [
        {
            "subject": subject,
            "text": " ".join(parts[start:end]),
            "action": "ADD",
            "confidence": 0.95,
            "kind": "fact",
            "importance_category": "specific_event",
            "temporal_class": "persistent",
            "valid_until": None,
            "categories": [],
            "gloss_en": gloss,
        }
        for (start, end), gloss in zip(spans, glosses, strict=True)
    ]
    return {
        "entities": [{"name": subject, "type": "document", "aliases": []}],
        "facts": facts,
        "relations": [],
        "profiles": {},
        "causal_links": [],
        "emotion": {"label": "neutral", "intensity": 0.1, "energy": 0.2},
    }


def recorded(
    corpus: list[dict[str, str]],
    english: dict[str, str],
    portuguese: dict[str, str],
    glosses: bool = True,
    max_facts: int = 20,
) -> dict[str, dict[str, Any]]:
    """Abstract text → its scripted answer, for every abstract of ``corpus`` (a memory's
    ``{title, text}`` list); ``english`` / ``portuguese``: every abstract's text by title in
    each language. An abstract held in Portuguese is glossed from its English text (unless
    ``glosses`` is False: the same facts without glosses)."""
    out: dict[str, dict[str, Any]] = {}
    for idx, item in enumerate(corpus):
        title, text = item["title"], item["text"]
        is_pt = portuguese.get(title) == text and english.get(title) != text
        gloss_from = english.get(title) if is_pt and glosses else None
        out[text] = answer(idx, text, gloss_from, max_facts)
    return out
