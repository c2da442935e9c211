"""The retrieval signals (thin async I/O around ``cypher/read`` and ``cypher/traversal``).

Multi-tenant correctness: ``db.index.vector.queryNodes`` and ``db.index.fulltext.queryNodes``
return a GLOBAL top-k over every agent, so filtering afterwards starves an agent whose facts are
not among the global best. Two strategies keep results exact:

* **exact scan** — ``vector.similarity.cosine`` over the agent's own facts, found through the
  ``agent_id`` range index. Cost grows with the agent's size, not the database's.
* **adaptive over-fetch** — start with ``k ≈ limit / agent_share × 1.5`` and grow ×4 until the
  agent has ``limit`` rows, the index is exhausted, the global k-th score is already below the
  similarity threshold, or a cap is hit (then the vector path falls back to the exact scan).

Vectors: exact scan when the agent has at most ``exact_scan_max_facts`` (default 1,000) items,
or when its share of the database is so small that the first over-fetch would already need
``overfetch_cap`` hits; index over-fetch otherwise. Measured by ``tests/bench/bench_retrieve.py``
(2 shared cores): exact scan costs ~0.035 ms per fact (10k facts: 370 ms) while an over-fetch
round costs ~40 ms at small k and ~105 ms at k = 18k, so the crossover sits near 1,000 facts.
With in-index filtered vector search (Neo4j 2026.01+, ``graph/vector_search.py``) a fact
search above ``search_min_facts`` (default 100) asks the index for the agent's own top-k
instead (``read/semantic_facts_search``): its cost does not grow with the number of other
agents, and with a beam of 4× the page it matched the exact top 10 at 50 to 1,000 facts
(``tests/bench/bench_agent_vectors.py``) while costing less than the scan from ~100 facts.
Full-text: the fact and event full-text indexes also index ``agent_id``, and the query carries a
zero-weight phrase on it (``planner.agent_lucene``), so Lucene returns this agent's best hits
only; the first round asks for the limit with 50 % slack and grows while invalidated facts
crowd the page (cap ``fulltext_cap``; the trace says when it was capped).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.executor import Executor
from graph.memory.read.models import EventHit, ScoredFact
from graph.memory.text import detect_language

__all__ = [
    "GLOSS_LANGUAGE",
    "Asked",
    "SearchStats",
    "choose_vector",
    "cosine_from_index",
    "event_from_row",
    "fact_from_row",
    "fact_strategy",
    "grow_k",
    "index_min_score",
    "initial_k",
    "keyword_events",
    "keyword_facts",
    "overfetch",
    "semantic_events",
    "semantic_facts",
    "semantic_glosses",
    "vector_rows",
    "with_glosses",
]


def cosine_from_index(score: float | None) -> float:
    """Neo4j reports cosine similarity as ``(1 + cos) / 2``; back to raw cosine in [-1, 1]."""
    return 0.0 if score is None else 2.0 * float(score) - 1.0


def index_min_score(min_cosine: float) -> float:
    """A raw-cosine threshold on the index scale."""
    return (1.0 + min_cosine) / 2.0


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _native(value: Any) -> Any:
    """A stored time as a Python datetime. The read statements return times as integer
    microseconds since the epoch (decoding a driver DateTime costs ~3x more)."""
    if value is None:
        return None
    if type(value) is int:
        return _EPOCH + timedelta(microseconds=value)
    return value.to_native() if hasattr(value, "to_native") else value


def _number(value: Any, default: float) -> float:
    return default if value is None else float(value)


def fact_from_row(row: dict[str, Any], source: str) -> ScoredFact:
    """A ScoredFact from the projection every read query returns."""
    f = row
    return ScoredFact(
        id=f["id"],
        text=f.get("text") or "",
        subject_key=f.get("subject_key"),
        kind=f.get("kind"),
        confidence=_number(f.get("confidence"), 0.0),
        importance=_number(f.get("importance"), 0.5),
        reinforcement_count=int(f.get("reinforcement_count") or 0),
        created_at=_native(f.get("created_at")),
        valid_from=_native(f.get("valid_from")),
        valid_to=_native(f.get("valid_to")),
        invalidated_at=_native(f.get("invalidated_at")),
        temporal_class=f.get("temporal_class"),
        valid_until=_native(f.get("valid_until")),
        event_ids=list(f.get("event_ids") or []),
        sources={source},
        # the language detected when it was written (None: unclear, or a fact written before
        # it was stored: detected again when the blend needs it)
        language=f.get("language") or None,
    )


# The language of a fact's gloss (the informed extraction's ``gloss_en``): a candidate whose
# gloss's vector matched counts as in this language for the blend.
GLOSS_LANGUAGE = "en"


@dataclass(frozen=True)
class Asked:
    """The question's language (``text.detect_language``; None: unclear) and the embedder's
    cross-lingual gap (``ScoringConfig.language_gap``): what the blend adds to a candidate in
    another language (``ranking.language_gap``), so what a glossed fact's two cosines are
    compared with."""

    language: str | None = None
    gap: float = 0.0

    def cross(self, language: str) -> float:
        """The gap the blend adds to a candidate in ``language`` ("" = unclear)."""
        return self.gap if self.language and language and language != self.language else 0.0


def choose_vector(fact: ScoredFact, text: float, gloss: float | None, asked: Asked) -> None:
    """A glossed fact's semantic score (pure). The gloss serves a question in English (or of
    no clear language): the gloss's cosine when it is higher than the text's with the
    cross-lingual gap the blend adds to the text's language; the fact's ``language`` is then
    the gloss's, so the blend adds no gap on top. A question in another language is met by
    the text alone (its Portuguese text is what a Portuguese question meets best; a second,
    translated vector only adds a chance for a wrong fact to score high: Pirá, 4-5 points of
    recall lost when the gloss competed with the gap)."""
    own = fact.language if fact.language is not None else detect_language(fact.text) or ""
    if asked.language not in (None, GLOSS_LANGUAGE):
        gloss = None
    if gloss is not None and gloss > text + asked.cross(own):
        fact.scores.semantic, fact.language = gloss, GLOSS_LANGUAGE
    else:
        fact.scores.semantic, fact.language = text, own


def with_glosses(text: Iterable[ScoredFact], glossed: Iterable[ScoredFact]) -> list[ScoredFact]:
    """Semantic candidates by the text's vectors, and the glossed facts' candidates, which
    weighed both of their vectors (``choose_vector``) and so replace their text candidates →
    each fact once, best first (pure)."""
    best = {f.id: f for f in text}
    best.update((f.id, f) for f in glossed)
    return sorted(best.values(), key=lambda f: (-f.scores.semantic, f.id))


def vector_rows(
    rows: Iterable[dict[str, Any]], glosses: bool = True, asked: Asked | None = None
) -> list[ScoredFact]:
    """Rows of a semantic statement (``fact``; ``score`` on the index scale; ``text_score``
    and ``gloss_score``, a glossed fact's two cosines, absent or null on a row of the text's
    vector) → candidates, each fact once (pure). ``glosses`` False leaves the gloss rows out."""
    text, glossed = [], []
    for row in rows:
        gloss = row.get("gloss_score")
        if gloss is not None and not glosses:
            continue
        fact = fact_from_row(row["fact"], "semantic")
        fact.scores.semantic = cosine_from_index(row["score"])
        if gloss is None:
            text.append(fact)
            continue
        text_score = row.get("text_score")
        choose_vector(
            fact,
            cosine_from_index(text_score) if text_score is not None else -1.0,
            cosine_from_index(gloss),
            asked or Asked(),
        )
        glossed.append(fact)
    return with_glosses(text, glossed)


def event_from_row(row: dict[str, Any]) -> EventHit:
    return EventHit(
        id=row["id"],
        text=row.get("text") or "",
        speaker=row.get("speaker"),
        occurred_at=_native(row.get("occurred_at")),
        superseded=bool(row.get("superseded")),
    )


def initial_k(limit: int, agent_count: int, total_count: int, cap: int) -> int:
    """First over-fetch size: enough global hits to hold ``limit`` of this agent's rows if its
    items were spread evenly through the ranking, with 50 % slack."""
    share = agent_count / total_count if total_count > 0 and agent_count > 0 else 1.0
    k = math.ceil(limit / max(share, 1e-9) * 1.5)
    return max(min(k, cap), min(limit * 2, cap), 1)


def grow_k(k: int, cap: int) -> int:
    return min(cap, k * 4)


SEARCH_BEAM = 4  # filtered search asks the index for this many times the page


def fact_strategy(
    limit: int, agent_count: int, total_count: int, exact_max: int, cap: int, filtered: bool
) -> str:
    """``exact`` (scan the agent's own items), ``search`` (in-index filtered search) or
    ``index`` (over-fetch of the global index): small agents scan, larger ones search where
    the server filters inside the index, and over-fetch only while their share of the index
    keeps the first round under the cap."""
    if agent_count <= exact_max:
        return "exact"
    if filtered:
        return "search"
    return "index" if initial_k(limit, agent_count, total_count, cap) < cap else "exact"


@dataclass
class SearchStats:
    """What a signal did, for the trace (strategy, k per round, whether it fell back)."""

    strategy: str = ""
    rounds: list[int] = field(default_factory=list)
    capped: bool = False
    rows: int = 0
    glosses: str = ""  # the strategy of the English glosses' search beside it ("": none)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "strategy": self.strategy,
            "rounds": self.rounds,
            "capped": self.capped,
            "rows": self.rows,
        }
        if self.glosses:
            out["glosses"] = self.glosses
        return out


@dataclass(frozen=True)
class Scope:
    """Who and when: shared parameters of every signal query."""

    agent_id: str
    as_of: datetime | None
    vector: list[float]
    min_confidence: float

    def params(self, **extra: Any) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "as_of": self.as_of,
            "vector": self.vector,
            "min_confidence": self.min_confidence,
            **extra,
        }


async def overfetch(
    query: Callable[[int], Awaitable[dict[str, Any]]],
    limit: int,
    k: int,
    cap: int,
    min_score: float | None,
    stats: SearchStats,
) -> tuple[list[dict[str, Any]], bool]:
    """Grow k until enough rows, exhaustion, a sub-threshold floor, or the cap.

    Returns the rows and whether they are complete (False only when the cap cut it short).
    """
    while True:
        stats.rounds.append(k)
        out = await query(k)
        rows: list[dict[str, Any]] = out["rows"]
        exhausted = int(out["fetched"]) < k
        floor = out.get("floor")
        below = min_score is not None and floor is not None and float(floor) < min_score
        if len(rows) >= limit or exhausted or below:
            return rows, True
        if k >= cap:
            stats.capped = True
            return rows, False
        k = grow_k(k, cap)


async def semantic_facts(
    ex: Executor,
    scope: Scope,
    *,
    limit: int,
    min_cosine: float,
    agent_facts: int,
    total_facts: int,
    exact_max: int,
    cap: int,
    stats: SearchStats,
    filtered: bool = False,
    glosses: bool = True,
    asked: Asked | None = None,
) -> list[ScoredFact]:
    """Facts nearest to the query vector (raw cosine in ``scores.semantic``); ``filtered``:
    the fact index allows in-index filtered search. The exact scan also scores the agent's
    glossed facts by the better of both vectors (``glosses`` False: by their text's only;
    ``asked``: the question's language, :func:`choose_vector`); the index paths read text
    vectors only (:func:`semantic_glosses` beside them)."""
    min_score = index_min_score(min_cosine)
    rows: list[dict[str, Any]] | None = None
    strategy = fact_strategy(limit, agent_facts, total_facts, exact_max, cap, filtered)
    if strategy != "exact":
        stats.strategy = strategy
        name = "read/semantic_facts_search" if strategy == "search" else "read/semantic_facts_index"

        async def query(k: int) -> dict[str, Any]:
            res = await ex.run(name, scope.params(k=k, min_score=min_score, limit=limit), read=True)
            return res[0]

        # The agent's own hits, 4x the page: the graph walk is approximate and a wider beam
        # finds the true best (recall@10 0.89 at LIMIT 15, 0.99 at 40: docs/benchmarks.md).
        k0 = (
            min(cap, limit * SEARCH_BEAM)
            if strategy == "search"
            else initial_k(limit, agent_facts, total_facts, cap)
        )
        got, complete = await overfetch(query, limit, k0, cap, min_score, stats)
        rows = got if complete else None
    if rows is None:
        stats.strategy = "exact" if not stats.strategy else stats.strategy + "+exact"
        rows = await ex.run(
            "read/semantic_facts_exact", scope.params(min_score=min_score, limit=limit), read=True
        )
    facts = vector_rows(rows, glosses, asked)
    stats.rows = len(facts)
    return facts


async def semantic_glosses(
    ex: Executor,
    scope: Scope,
    *,
    limit: int,
    min_cosine: float,
    agent_glosses: int,
    total_facts: int,
    exact_max: int,
    cap: int,
    stats: SearchStats,
    asked: Asked | None = None,
) -> list[ScoredFact]:
    """The agent's glossed facts nearest to the query, each at the better of its text's and
    its English gloss's cosine (:func:`choose_vector`): the exact scan of its glossed facts (``fact_gloss`` index),
    or, past ``exact_max`` glosses, the over-fetch of the gloss vector index (its share of
    that index reckoned against every fact of the database: glosses are not counted apart,
    so the first round is larger than needed, never smaller)."""
    min_score = index_min_score(min_cosine)
    rows: list[dict[str, Any]] | None = None
    if fact_strategy(limit, agent_glosses, total_facts, exact_max, cap, False) == "index":
        stats.strategy = "index"

        async def query(k: int) -> dict[str, Any]:
            params = scope.params(k=k, min_score=min_score, limit=limit)
            return (await ex.run("read/semantic_glosses_index", params, read=True))[0]

        k0 = initial_k(limit, agent_glosses, total_facts, cap)
        got, complete = await overfetch(query, limit, k0, cap, min_score, stats)
        rows = got if complete else None
    if rows is None:
        stats.strategy = "exact" if not stats.strategy else stats.strategy + "+exact"
        rows = await ex.run(
            "read/semantic_glosses_exact", scope.params(min_score=min_score, limit=limit), read=True
        )
    facts = vector_rows(rows, asked=asked)
    stats.rows = len(facts)
    return facts


async def keyword_facts(
    ex: Executor,
    scope: Scope,
    *,
    lucene: str,
    limit: int,
    agent_facts: int,
    total_facts: int,
    cap: int,
    stats: SearchStats,
) -> list[ScoredFact]:
    """Full-text hits, BM25 normalised to 0..1 by the agent's best hit."""
    stats.strategy = "fulltext"
    if not lucene or agent_facts == 0:
        return []

    async def query(k: int) -> dict[str, Any]:
        res = await ex.run(
            "read/keyword_facts", scope.params(q=lucene, k=k, limit=limit), read=True
        )
        return res[0]

    # Limited to the agent inside the index (planner.agent_lucene): no other agent's hits.
    rows, _ = await overfetch(
        query, limit, initial_k(limit, agent_facts, agent_facts, cap), cap, None, stats
    )
    top = max((float(r["score"]) for r in rows), default=0.0)
    facts = []
    for row in rows:
        fact = fact_from_row(row["fact"], "keyword")
        fact.scores.keyword = float(row["score"]) / top if top > 0 else 0.0
        fact.scores.semantic = cosine_from_index(row["semantic"])
        facts.append(fact)
    stats.rows = len(facts)
    return facts


async def semantic_events(
    ex: Executor,
    scope: Scope,
    *,
    limit: int,
    min_cosine: float,
    agent_events: int,
    total_events: int,
    exact_max: int,
    cap: int,
    stats: SearchStats,
    filtered: bool = False,
) -> list[EventHit]:
    """Events nearest to the query vector (same strategies as facts; ``filtered``: the event
    index allows in-index filtered search)."""
    if agent_events == 0:
        stats.strategy = "none"
        return []
    min_score = index_min_score(min_cosine)
    params = {
        "agent_id": scope.agent_id,
        "as_of": scope.as_of,
        "vector": scope.vector,
        "min_score": min_score,
        "limit": limit,
    }
    rows: list[dict[str, Any]] | None = None
    strategy = fact_strategy(limit, agent_events, total_events, exact_max, cap, filtered)
    if strategy != "exact":
        stats.strategy = strategy
        name = (
            "read/semantic_events_search" if strategy == "search" else "read/semantic_events_index"
        )
        k0 = (
            min(cap, limit * SEARCH_BEAM)
            if strategy == "search"
            else initial_k(limit, agent_events, total_events, cap)
        )

        async def query(k: int) -> dict[str, Any]:
            return (await ex.run(name, {**params, "k": k}, read=True))[0]

        got, complete = await overfetch(query, limit, k0, cap, min_score, stats)
        rows = got if complete else None
    if rows is None:
        stats.strategy = "exact" if not stats.strategy else stats.strategy + "+exact"
        rows = await ex.run("read/semantic_events_exact", params, read=True)
    hits = []
    for row in rows:
        hit = event_from_row(row["event"])
        hit.semantic = cosine_from_index(row["score"])
        hits.append(hit)
    stats.rows = len(hits)
    return hits


async def keyword_events(
    ex: Executor,
    scope: Scope,
    *,
    lucene: str,
    limit: int,
    agent_events: int,
    total_events: int,
    cap: int,
    stats: SearchStats,
) -> list[EventHit]:
    """Full-text event hits, BM25 normalised to 0..1 by the agent's best hit."""
    stats.strategy = "fulltext"
    if not lucene or agent_events == 0:
        return []
    params = {
        "agent_id": scope.agent_id,
        "as_of": scope.as_of,
        "vector": scope.vector,
        "q": lucene,
        "limit": limit,
    }

    async def query(k: int) -> dict[str, Any]:
        return (await ex.run("read/keyword_events", {**params, "k": k}, read=True))[0]

    rows, _ = await overfetch(
        query, limit, initial_k(limit, agent_events, agent_events, cap), cap, None, stats
    )
    top = max((float(r["score"]) for r in rows), default=0.0)
    hits = []
    for row in rows:
        hit = event_from_row(row["event"])
        hit.keyword = float(row["score"]) / top if top > 0 else 0.0
        hit.semantic = cosine_from_index(row["semantic"])
        hits.append(hit)
    stats.rows = len(hits)
    return hits
