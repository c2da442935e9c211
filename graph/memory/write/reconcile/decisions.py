"""Reconcile stage: reconciliation decisions (pure): ADD / UPDATE / NOOP / DELETE.

Thresholds decide the clear cases without any LLM; the ambiguous band goes to the LLM (or, in
offline mode, to the rules below: contradiction detector and single-valued relation types).
LLM answers are validated: a target outside the candidate set or an empty reason is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graph.memory.text import fold

__all__ = [
    "ACTIONS",
    "ExistingFact",
    "ExistingRelation",
    "FactDecision",
    "NewRelation",
    "contradicts",
    "fast_decision",
    "hybrid_rank",
    "is_retraction",
    "offline_decision",
    "second_values",
    "single_valued_conflicts",
    "validate_llm_decision",
]

ACTIONS = ("ADD", "UPDATE", "NOOP", "DELETE")
_NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "nor",
        "none",
        "n't",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "arent",
        "wasnt",
        "longer",
        "anymore",
        "nao",
        "nunca",
        "jamais",
        "nem",
        "mais",
        "cannot",
        "cant",
        "wont",
    }
)
_RETRACTION = re.compile(
    r"\b(no longer|not anymore|any ?more|n[’']t \w+ (?:\w+ )?anymore|nunca mais|deixei de|"
    r"deixou de|não \w+ mais|nao \w+ mais|stopped|quit)\b",
    re.IGNORECASE,
)
_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("like", "dislike"),
    ("love", "hate"),
    ("married", "divorced"),
    ("start", "stop"),
    ("joined", "left"),
    ("alive", "dead"),
    ("true", "false"),
    ("open", "closed"),
    ("employed", "unemployed"),
    ("gosta", "odeia"),
    ("ama", "odeia"),
    ("casado", "divorciado"),
    ("always", "never"),
    ("vegan", "carnivore"),
    ("single", "married"),
)
_STOP = frozenset(
    {
        "the",
        "a",
        "an",
        "at",
        "in",
        "of",
        "to",
        "is",
        "are",
        "was",
        "and",
        "o",
        "em",
        "de",
        "do",
        "da",
        "e",
        "um",
        "uma",
    }
)


@dataclass(frozen=True)
class ExistingFact:
    """A candidate: an active fact of the same subject with its similarity to the new fact."""

    id: str
    text: str
    similarity: float
    confidence: float = 0.9


@dataclass(frozen=True)
class FactDecision:
    action: str
    target_id: str | None = None
    reason: str = ""
    similarity: float | None = None
    review_needed: bool = False
    by: str = "rule"


def _stem(token: str) -> str:
    """Crude suffix stripping so "likes"/"like"/"liked" compare equal."""
    for suffix in ("ing", "ed", "s"):
        if len(token) > len(suffix) + 2 and token.endswith(suffix):
            token = token[: -len(suffix)]
            break
    return token[:-1] if len(token) > 3 and token.endswith("e") else token


def _content(text: str) -> tuple[set[str], bool]:
    text = re.sub(r"n[’']t\b", " not", text, flags=re.IGNORECASE)  # before fold drops "'"
    tokens = re.findall(r"\w+", fold(text))
    negated = any(t in _NEGATIONS for t in tokens)
    return {_stem(t) for t in tokens if t not in _NEGATIONS and t not in _STOP}, negated


def is_retraction(text: str) -> bool:
    """Does the statement retract something ("no longer", "não … mais", "quit")?"""
    return bool(_RETRACTION.search(text))


def contradicts(new: str, old: str, *, min_overlap: float = 0.6) -> bool:
    """Contradiction detector: opposite negation polarity or an antonym pair over otherwise
    similar content (token overlap ≥ ``min_overlap`` of the smaller side)."""
    a, neg_a = _content(new)
    b, neg_b = _content(old)
    if not a or not b:
        return False
    overlap = len(a & b) / min(len(a), len(b))
    if neg_a != neg_b and overlap >= min_overlap:
        return True
    for x, y in _ANTONYMS:
        sx, sy = _stem(x), _stem(y)
        if ((sx in a and sy in b) or (sy in a and sx in b)) and len(
            (a - {sx, sy}) & (b - {sx, sy})
        ) / max(1, min(len(a), len(b)) - 1) >= 0.5:
            return True
    return False


def hybrid_rank(
    text: str, candidates: Sequence[ExistingFact], k: int = 5, lexical_weight: float = 0.25
) -> list[ExistingFact]:
    """Hybrid candidate order: ``(1 - w)·cosine + w·token-overlap`` (Jaccard on content
    tokens), best first, top ``k``. The thresholds still apply to the cosine."""
    new_tokens, _ = _content(text)

    def score(c: ExistingFact) -> float:
        old_tokens, _ = _content(c.text)
        union = new_tokens | old_tokens
        lexical = len(new_tokens & old_tokens) / len(union) if union else 0.0
        return (1 - lexical_weight) * c.similarity + lexical_weight * lexical

    return sorted(candidates, key=lambda c: (-score(c), c.id))[:k]


def fast_decision(
    candidates: Sequence[ExistingFact], *, add_below: float = 0.50, noop_at: float = 0.98
) -> FactDecision | None:
    """The threshold rules: no candidate or best < ``add_below`` → ADD; best ≥ ``noop_at`` →
    NOOP on it; otherwise None (ambiguous: ask the LLM or the offline rules)."""
    if not candidates:
        return FactDecision("ADD", reason="no existing fact for this subject")
    best = max(candidates, key=lambda c: c.similarity)
    if best.similarity >= noop_at:
        return FactDecision("NOOP", best.id, "already known", best.similarity)
    if best.similarity < add_below:
        return FactDecision("ADD", reason="nothing similar known", similarity=best.similarity)
    return None


def offline_decision(
    text: str, candidates: Sequence[ExistingFact], *, noop_at: float = 0.98
) -> FactDecision:
    """Rules for the ambiguous band without an LLM: a retraction that contradicts a candidate
    deletes it; another contradiction adds the new fact flagged ``review_needed``; near-exact
    wording (same content tokens, same polarity) is a NOOP; otherwise ADD."""
    ranked = sorted(candidates, key=lambda c: -c.similarity)
    for cand in ranked:
        if contradicts(text, cand.text):
            if is_retraction(text):
                return FactDecision(
                    "DELETE", cand.id, "retracted: " + cand.text[:80], cand.similarity
                )
            return FactDecision(
                "ADD",
                reason=f"contradicts {cand.id}",
                similarity=cand.similarity,
                review_needed=True,
            )
    new_tokens, new_neg = _content(text)
    for cand in ranked:
        old_tokens, old_neg = _content(cand.text)
        if new_tokens == old_tokens and new_neg == old_neg:
            return FactDecision("NOOP", cand.id, "same content", cand.similarity)
    return FactDecision(
        "ADD", reason="distinct enough", similarity=ranked[0].similarity if ranked else None
    )


def validate_llm_decision(
    raw: object, candidate_ids: Iterable[str], warnings: list[str]
) -> FactDecision | None:
    """Check one LLM decision. Unknown action → None; UPDATE/NOOP/DELETE whose ``target_id``
    is not a candidate, or any decision with an empty reason → dropped (None, with a warning)."""
    if not isinstance(raw, dict):
        return None
    action = str(raw.get("action", "")).upper().strip()
    reason = str(raw.get("reason") or "").strip()
    target = raw.get("target_id")
    target = str(target).strip() if target not in (None, "") else None
    if action not in ACTIONS:
        warnings.append(f"reconcile: unknown action {action!r} dropped")
        return None
    if not reason:
        warnings.append(f"reconcile: {action} without a reason dropped")
        return None
    if action != "ADD" and target not in set(candidate_ids):
        warnings.append(f"reconcile: {action} target {target!r} is not a candidate; dropped")
        return None
    return FactDecision(action, target if action != "ADD" else None, reason[:500], by="llm")


@dataclass(frozen=True)
class ExistingRelation:
    id: str
    source_key: str
    target_key: str
    type: str
    evidence_fact_id: str | None


@dataclass(frozen=True)
class NewRelation:
    source_key: str
    target_key: str
    type: str


def single_valued_conflicts(
    new: Sequence[NewRelation], active: Sequence[ExistingRelation], single_valued: Iterable[str]
) -> list[tuple[NewRelation, ExistingRelation]]:
    """Pairs (new, old) where a single-valued type (lives_in, works_at, …) gets a new target:
    the old relation (and, offline, its evidence fact) is superseded."""
    kinds = set(single_valued)
    out: list[tuple[NewRelation, ExistingRelation]] = []
    for rel in new:
        if rel.type not in kinds:
            continue
        for old in active:
            if (
                old.source_key == rel.source_key
                and old.type == rel.type
                and old.target_key != rel.target_key
            ):
                out.append((rel, old))
    return out


def second_values(
    new: Sequence[NewRelation], active: Sequence[ExistingRelation], first_value: Iterable[str]
) -> list[tuple[NewRelation, ExistingRelation]]:
    """Pairs (new, old) of a single-valued type that keeps its first target (an ontology's
    ``supersedes: false``): the new relation is refused, the old one stays."""
    return single_valued_conflicts(new, active, first_value)
