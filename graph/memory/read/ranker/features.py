"""The ranker's view of a retrieve's candidates (pure): one row of numbers per candidate fact
or conversation turn, from what the retrieve already holds (no round trip).

A row holds every signal's raw score *and* its place among this retrieve's candidates (rank,
gap to the best, spread), the candidate's own properties, how it relates to the question's
words and named entities, and the question's own features (question word, length, language,
entities, a time or a relation named). Facts and turns share one vocabulary (``is_turn`` tells
them apart; a turn has no importance or confidence of its own and gets the neutral values
the formula gives it), so one model orders both on one scale.

``FEATURES`` is the vocabulary: a model file names the features it was trained on, and the
table here is built in that order. A feature is added at the end and never renamed: a model
trained before simply does not read it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

import numpy as np

from graph.memory.read.config import RetrieveConfig
from graph.memory.read.models import EventHit, RetrievalPlan, ScoredFact
from graph.memory.read.ranking import language_of, recency
from graph.memory.read.temporal import TimeWindow
from graph.memory.read.words import PREFIX_CHARS, text_view
from graph.memory.text import fold

__all__ = [
    "FEATURES",
    "QUESTION_WORDS",
    "Candidate",
    "FeatureTable",
    "QueryView",
    "feature_table",
    "query_view",
]

# The question's first question word (English and Portuguese), as one-hot features.
QUESTION_WORDS: dict[str, tuple[str, ...]] = {
    "what": ("what", "o que", "que", "qual", "quais"),
    "when": ("when", "quando"),
    "where": ("where", "onde", "aonde"),
    "who": ("who", "whom", "whose", "quem"),
    "why": ("why", "por que", "porque"),
    "how": ("how", "como", "quanto", "quantos", "quantas"),
    "which": ("which",),
    "yesno": (
        "is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could",
        "would", "will", "should", "e", "foi", "sera",
    ),
}  # fmt: skip

FEATURES: tuple[str, ...] = (
    # the semantic signal: raw cosine, with the cross-lingual gap added back, and its place
    "cosine",
    "cosine_adjusted",
    "cosine_rank",
    "cosine_gap",
    "cosine_z",
    # the keyword signal (BM25, normalised by its best hit) and the question's words it holds
    "bm25",
    "bm25_rank",
    "keyword_coverage",
    "keyword_coverage_idf",
    # the graph: the hop-decayed traversal, spreading activation, relation answers
    "graph",
    "hops",
    "activation",
    "relation",
    # time, the fact's own weight
    "temporal",
    "recency",
    "importance",
    "confidence",
    "pattern",
    # the hand formula's score and its place
    "formula",
    "formula_rank",
    "formula_gap",
    # what the candidate is
    "is_turn",
    "language_match",
    "source_cosine",
    "source_formula",
    "signals",
    "found_semantic",
    "found_keyword",
    "found_graph",
    "text_tokens",
    "entity_mentions",
    "entity_share",
    "subject_named",
    "past_turn",
    # the question
    *(f"question_{w}" for w in QUESTION_WORDS),
    "question_other",
    "query_words",
    "query_english",
    "query_portuguese",
    "query_entities",
    "query_time",
    "query_relation",
    "pool_size",
    "pool_turns",
    "agent_facts",
    # added later (a model trained before reads none of them)
    "rrf",
    "session_cosine",
    "session_candidates",
    "phrase_coverage",
    "session_fact_cosine",
    "session_facts",
    # how far the pool's own signals can be trusted: the share of candidates in the question's
    # language (keyword signals find little across languages) and found by keyword
    "pool_language_match",
    "pool_keyword",
    # what kind of answer the candidate could give (read with the question word): a date, a
    # number, names the question does not already say
    "answer_date",
    "answer_number",
    "answer_names",
)
_INDEX = {name: i for i, name in enumerate(FEATURES)}
# Rank features of a candidate the signal did not find: the last place of any pool.
_UNRANKED = math.log1p(500.0)
_NOT_REACHED_HOPS = 3.0


@dataclass(frozen=True)
class QueryView:
    """What the features read of the question and its plan."""

    words: int
    stems: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    language: str | None
    question_word: str
    names: tuple[str, ...]  # folded names and matched words of the named entities
    name_words: frozenset[str]  # the words of ``names``
    entity_keys: frozenset[str]
    time_window: bool
    relation: bool
    agent_facts: int


def _question_word(folded: str) -> str:
    head = " ".join(folded.split()[:2])
    first = head.split(" ", 1)[0] if head else ""
    for name, words in QUESTION_WORDS.items():
        for word in words:
            if (" " in word and head.startswith(word)) or first == word:
                return name
    # "In which year ...", "Em que cidade ...": the question word comes after a preposition
    for word in folded.split()[:4]:
        for name in ("which", "what", "when", "where", "who"):
            if word in QUESTION_WORDS[name][:2]:
                return name
    return "other"


def query_view(
    query: str,
    plan: RetrievalPlan,
    language: str | None,
    window: TimeWindow | None,
    agent_facts: int,
    relation: bool,
) -> QueryView:
    """The question's features (pure)."""
    folded = fold(query)
    named = [e for e in plan.entities if e.named]
    names = {fold(text) for e in named for text in (e.name, e.matched) if len(text) >= 3}
    return QueryView(
        words=len(folded.split()),
        stems=frozenset(_stems(query)),
        bigrams=_bigrams(query),
        language=language,
        question_word=_question_word(folded),
        names=tuple(sorted(n for n in names if n)),
        name_words=frozenset(w for n in names for w in n.split()),
        entity_keys=frozenset(e.key for e in named),
        time_window=window is not None,
        relation=relation,
        agent_facts=agent_facts,
    )


def _stems(text: str) -> frozenset[str]:
    return text_view(text).stems


def _bigrams(text: str) -> frozenset[tuple[str, str]]:
    return text_view(text).bigrams


@dataclass
class Candidate:
    """One candidate as the ranker sees it: a fact or a turn."""

    item: ScoredFact | EventHit
    is_turn: bool
    cosine: float
    bm25: float
    formula: float
    sources: frozenset[str] = field(default_factory=frozenset)

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def text(self) -> str:
        return self.item.text


@dataclass
class FeatureTable:
    """The candidates and their rows (``values[i]`` is ``candidates[i]``'s, in ``FEATURES``
    order). ``ranked`` marks the candidates a model orders (the formula's first ones, see
    :func:`feature_table`); a row not worked out yet is zeros until :meth:`fill`."""

    candidates: list[Candidate]
    values: np.ndarray
    ranked: np.ndarray  # (n,) bool
    filled: np.ndarray  # (n,) bool: the rows worked out
    pool: _PoolView | None = None

    def column(self, name: str) -> np.ndarray:
        return self.values[:, _INDEX[name]]

    def fill(self, rows: Sequence[int]) -> None:
        """Work out the rows ``rows`` that are not yet (a returned fact's, for its
        explanation)."""
        missing = np.asarray([i for i in rows if not self.filled[i]], dtype=int)
        if not len(missing) or self.pool is None:
            return
        pool = self.pool
        own = np.asarray([_candidate_row(self.candidates[i], pool) for i in missing.tolist()])
        self.values[np.ix_(missing, _OWN_AT)] = own
        self.filled[missing] = True


def _candidates(facts: Sequence[ScoredFact], events: Sequence[EventHit]) -> list[Candidate]:
    out = [
        Candidate(
            f, False, f.scores.semantic, f.scores.keyword, f.scores.formula, frozenset(f.sources)
        )
        for f in facts
    ]
    for e in events:
        sources = {n for n, v in (("semantic", e.semantic), ("keyword", e.keyword)) if v > 0}
        out.append(Candidate(e, True, e.semantic, e.keyword, e.score, frozenset(sources)))
    return out


def _ranks(values: np.ndarray, present: np.ndarray | None = None) -> np.ndarray:
    """log1p of each value's place, best first (ties share the better place); a value not
    ``present`` gets the last place of any pool."""
    order = np.argsort(-values, kind="stable")
    ranks = np.empty(len(values))
    ranks[order] = np.arange(len(values))
    out = np.log1p(ranks)
    if present is not None:
        out[~present] = _UNRANKED
    return out


def _idf(candidates: Sequence[Candidate], stems: frozenset[str]) -> dict[str, float]:
    """Query-side IDF of the question's stems over the texts of ``candidates`` (the ones a
    model orders: the rarer a stem among them, the more it tells them apart)."""
    n = len(candidates)
    counts = dict.fromkeys(stems, 0)
    for c in candidates:
        for s in stems & _stems(c.text):
            counts[s] += 1
    return {s: math.log1p(n / (1 + k)) for s, k in counts.items()}


def _sources_of(candidates: Sequence[Candidate]) -> dict[str, tuple[float, float]]:
    """Item id → the best (cosine, formula) of the candidates linked to it by provenance: a
    fact's source turns, a turn's extracted facts."""
    events = {c.id: c for c in candidates if c.is_turn}
    linked: dict[str, tuple[float, float]] = {}

    def keep(key: str, other: Candidate) -> None:
        cos, form = linked.get(key, (0.0, 0.0))
        linked[key] = (max(cos, other.cosine), max(form, other.formula))

    for c in candidates:
        if c.is_turn:
            continue
        assert isinstance(c.item, ScoredFact)
        for eid in c.item.event_ids:
            turn = events.get(eid)
            if turn is not None:
                keep(c.id, turn)
                keep(turn.id, c)
    return linked


def _fact_columns(c: Candidate, now: datetime, cfg: RetrieveConfig) -> tuple[float, ...]:
    """A fact's own columns, in ``_FACT_COLUMNS`` order; a turn's neutral values (the
    formula's)."""
    item = c.item
    if isinstance(item, ScoredFact):
        s = item.scores
        hops = float(item.hops) if item.hops is not None else _NOT_REACHED_HOPS
        return (s.graph, hops, s.activation, s.relation, s.temporal, s.recency, s.importance,
                s.confidence, s.pattern)  # fmt: skip
    rec = recency(item.occurred_at, now, cfg.scoring.recency_half_life_days)
    return (item.graph, _NOT_REACHED_HOPS, 0.0, 0.0, 0.0, rec, 0.5, 1.0, 0.0)


_FACT_COLUMNS = ("graph", "hops", "activation", "relation", "temporal", "recency",
                 "importance", "confidence", "pattern")  # fmt: skip
_OWN_COLUMNS = (*_FACT_COLUMNS, "keyword_coverage", "keyword_coverage_idf", "is_turn",
                "language_match", "source_cosine", "source_formula", "signals",
                "found_semantic", "found_keyword", "found_graph", "text_tokens",
                "entity_mentions", "entity_share", "subject_named", "past_turn",
                "phrase_coverage", "answer_date", "answer_number",
                "answer_names")  # fmt: skip


@dataclass(frozen=True)
class _PoolView:
    """What every candidate's row reads of the whole pool."""

    query: QueryView
    idf: dict[str, float]
    idf_total: float
    linked: dict[str, tuple[float, float]]
    window: TimeWindow | None
    now: datetime
    cfg: RetrieveConfig


@lru_cache(maxsize=4_096)
def _name(text: str) -> str:
    return fold(text)


def _candidate_row(c: Candidate, pool: _PoolView) -> tuple[float, ...]:
    """The candidate's own columns (those that need no other candidate), in
    ``_OWN_COLUMNS`` order."""
    q = pool.query
    item = c.item
    words = text_view(c.text)
    shared = q.stems & words.stems
    folded = words.folded
    mentions = sum(1 for n in q.names if f" {n} " in folded)
    language = language_of(item)
    match = _language_match(language, q.language)
    source_cos, source_form = pool.linked.get(c.id, (0.0, 0.0))
    own = _fact_columns(c, pool.now, pool.cfg)
    if isinstance(item, EventHit):
        window = pool.window
        hit = float(window is not None and window.contains(item.occurred_at))
        own = (*own[:4], hit, *own[5:])
        subject = 1.0 if item.speaker and _name(item.speaker) in q.names else 0.0
    else:
        subject = 1.0 if item.subject_key in q.entity_keys else 0.0
    sources = c.sources
    return (
        *own,
        len(shared) / len(q.stems) if q.stems else 0.0,
        sum(pool.idf[s] for s in shared) / pool.idf_total if pool.idf_total > 0 else 0.0,
        float(c.is_turn),
        match,
        source_cos,
        source_form,
        float(len(sources)),
        float("semantic" in sources),
        float("keyword" in sources),
        float("graph" in sources),
        words.length,
        float(mentions),
        mentions / len(q.names) if q.names else 0.0,
        subject,
        float(bool(getattr(item, "superseded", False))),
        len(q.bigrams & words.bigrams) / len(q.bigrams) if q.bigrams else 0.0,
        *_answer_shape(c.text, q),
    )


_MONTH_TEXT = """january february march april may june july august september october november
december janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro
monday tuesday wednesday thursday friday saturday sunday
segunda terca quarta quinta sexta sabado domingo"""
_RELATIVE_TIME_TEXT = """yesterday today tomorrow tonight ago weekend week month year last next
recently ontem hoje amanha semana mes ano passado passada proximo recentemente"""
_NUMBER_TEXT = """one two three four five six seven eight nine ten eleven twelve twenty hundred
thousand million dois duas tres quatro cinco seis sete oito nove dez vinte cem mil milhao"""
_MONTHS = frozenset(_MONTH_TEXT.split())
_RELATIVE_TIME = frozenset(_RELATIVE_TIME_TEXT.split())
_NUMBER_WORDS = frozenset(_NUMBER_TEXT.split())
_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b|\b\d{1,2}/\d{1,2}\b")
_DIGIT = re.compile(r"\d")
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-ZÀ-Ý][\w'-]+", re.UNICODE)


def _answer_shape(text: str, q: QueryView) -> tuple[float, float, float]:
    """Whether ``text`` holds a date (1; 0.5 for a relative time word), a number, and how many
    capitalised words past a sentence's start the question does not say (log1p)."""
    date, number, names = _answer_kinds(text)
    unsaid = [n for n in names if n not in q.name_words and n[:PREFIX_CHARS] not in q.stems]
    return date, number, math.log1p(len(unsaid))


@lru_cache(maxsize=65_536)
def _answer_kinds(text: str) -> tuple[float, float, frozenset[str]]:
    """The question-free part of :func:`_answer_shape`: date, number, the folded names."""
    words = set(text_view(text).folded.split())  # the folded text the keyword features read
    digit = _DIGIT.search(text) is not None
    dated = (digit and _YEAR.search(text) is not None) or bool(words & _MONTHS)
    date = 1.0 if dated else 0.5 if words & _RELATIVE_TIME else 0.0
    number = float(digit or bool(words & _NUMBER_WORDS))
    return date, number, frozenset(map(_fold_word, _NAME.findall(text)))


def _fold_word(word: str) -> str:
    """``fold(word)``, without its Unicode passes for a plain ASCII word (most names)."""
    return word.lower() if word.isascii() and word.isalnum() else fold(word)


def _query_columns(q: QueryView, pool: int, turns: int) -> dict[str, float]:
    return {
        **{f"question_{w}": float(q.question_word == w) for w in QUESTION_WORDS},
        "question_other": float(q.question_word == "other"),
        "query_words": float(q.words),
        "query_english": float(q.language == "en"),
        "query_portuguese": float(q.language == "pt"),
        "query_entities": float(len(q.entity_keys)),
        "query_time": float(q.time_window),
        "query_relation": float(q.relation),
        "pool_size": math.log1p(pool),
        "pool_turns": turns / pool if pool else 0.0,
        "agent_facts": math.log1p(max(0, q.agent_facts)),
    }


def _pool_columns(
    candidates: Sequence[Candidate], q: QueryView, gap: float
) -> dict[str, np.ndarray]:
    """The columns that place a candidate among the others: ranks, gaps, spread."""
    cosine = np.array([c.cosine for c in candidates])
    other_language = np.array(
        [bool(q.language) and language_of(c.item) not in ("", q.language) for c in candidates]
    )
    adjusted = cosine + gap * other_language
    bm25 = np.array([c.bm25 for c in candidates])
    formula = np.array([c.formula for c in candidates])
    spread = float(adjusted.std()) or 1.0
    cos_rank = np.argsort(np.argsort(-adjusted, kind="stable"), kind="stable") + 1.0
    bm_rank = np.argsort(np.argsort(-bm25, kind="stable"), kind="stable") + 1.0
    rrf = 1.0 / (60.0 + cos_rank) + np.where(bm25 > 0, 1.0 / (60.0 + bm_rank), 0.0)
    near = _same_session(np.array([_when(c) for c in candidates]))
    turns = np.array([c.is_turn for c in candidates])
    session_cosine, session_candidates = _sessions(near, turns, adjusted)
    session_fact_cosine, session_facts = _sessions(near, ~turns, adjusted)
    return {
        "rrf": rrf * 30.0,
        "session_cosine": session_cosine,
        "session_candidates": session_candidates,
        "session_fact_cosine": session_fact_cosine,
        "session_facts": session_facts,
        "cosine": cosine,
        "cosine_adjusted": adjusted,
        "cosine_rank": _ranks(adjusted),
        "cosine_gap": adjusted.max() - adjusted,
        "cosine_z": (adjusted - adjusted.mean()) / spread,
        "bm25": bm25,
        "bm25_rank": _ranks(bm25, bm25 > 0),
        "formula": formula,
        "formula_rank": _ranks(formula),
        "formula_gap": formula.max() - formula,
    }


SESSION_S = 1_800.0


def _when(c: Candidate) -> float:
    item = c.item
    at = item.occurred_at if isinstance(item, EventHit) else (item.valid_from or item.created_at)
    return at.timestamp() if at is not None else math.nan


def _same_session(times: np.ndarray) -> np.ndarray:
    """(n, n): candidate j was said or dated within ``SESSION_S`` of candidate i (the same
    conversation session; never itself, never when either has no time)."""
    near = np.abs(times[:, None] - times[None, :]) <= SESSION_S  # NaN compares False
    np.fill_diagonal(near, False)
    return near


def _sessions(
    near: np.ndarray, kind: np.ndarray, adjusted: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per candidate, the best cosine of the *other* candidates of ``kind`` (turns, or facts)
    in its session (``near``), and how many there are (log1p): what was said around a
    relevant item is often relevant too."""
    near = near & kind[None, :]
    best = np.where(near, adjusted[None, :], -1.0).max(axis=1)
    best[~near.any(axis=1)] = 0.0
    return best, np.log1p(near.sum(axis=1))


_OWN_AT = np.asarray([_INDEX[name] for name in _OWN_COLUMNS])


def _first_by_formula(formula: np.ndarray, limit: int | None) -> np.ndarray:
    """(n,) bool: the ``limit`` candidates of highest formula score (all when None; ties in
    the candidates' order)."""
    ranked = np.ones(len(formula), dtype=bool)
    if limit is not None and len(formula) > limit:
        ranked[:] = False
        ranked[np.argsort(-formula, kind="stable")[:limit]] = True
    return ranked


def feature_table(
    facts: Sequence[ScoredFact],
    events: Sequence[EventHit],
    q: QueryView,
    cfg: RetrieveConfig,
    now: datetime,
    window: TimeWindow | None = None,
    limit: int | None = None,
    every_row: bool = False,
) -> FeatureTable:
    """Every candidate's row, after the formula scored them (``ranking.score_facts`` and
    ``score_events``: the formula and its components are features). ``limit``: a model
    orders the formula's first ``limit`` candidates only (``ranked``), and only their rows
    are worked out unless ``every_row``; the columns that place a candidate among the others
    (ranks, gaps, the pool's shares) always read the whole pool, the keywords' IDF the
    ranked candidates only."""
    candidates = _candidates(facts, events)
    n = len(candidates)
    if not candidates:
        none = np.zeros(0, dtype=bool)
        return FeatureTable(candidates, np.zeros((0, len(FEATURES))), none, none)
    columns: dict[str, np.ndarray] = _pool_columns(candidates, q, cfg.scoring.language_gap)
    ranked = _first_by_formula(columns["formula"], limit)
    idf = _idf([c for c, r in zip(candidates, ranked, strict=True) if r], q.stems)
    pool = _PoolView(q, idf, sum(idf.values()), _sources_of(candidates), window, now, cfg)
    filled = np.ones(n, dtype=bool) if every_row else ranked.copy()
    own = np.zeros((n, len(_OWN_COLUMNS)))
    own[filled] = [_candidate_row(c, pool) for c, f in zip(candidates, filled, strict=True) if f]
    for j, name in enumerate(_OWN_COLUMNS):
        columns[name] = own[:, j]
    # the pool's shares read every candidate, rows worked out or not
    languages = [language_of(c.item) for c in candidates]
    columns["pool_language_match"] = np.full(n, _language_share(languages, q.language))
    columns["pool_keyword"] = np.full(n, np.mean(["keyword" in c.sources for c in candidates]))
    turns = sum(c.is_turn for c in candidates)
    for name, value in _query_columns(q, n, turns).items():
        columns[name] = np.full(n, value)
    values = np.column_stack([columns[name] for name in FEATURES])
    return FeatureTable(candidates, values, ranked, filled, pool)


def _language_match(language: str | None, query: str | None) -> float:
    """1 when a candidate is in the question's language, 0 when in another, 0.5 when either
    language is unclear."""
    return 0.5 if not language or not query else float(language == query)


def _language_share(languages: Sequence[str], query: str | None) -> float:
    """The mean of the candidates' ``language_match``."""
    return float(np.mean([_language_match(lang, query) for lang in languages]))
