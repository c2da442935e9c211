"""LoCoMo benchmark parts: evidence-recall metrics, the baseline rankers (exact vector
top-k, BM25, and their reciprocal-rank fusion, Graphiti's hybrid search) and the entity
linking of the imported facts (the offline write path's extraction and resolution)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Any

from graph.executor import Executor
from graph.memory.read.config import RetrieveConfig
from graph.memory.read.planner import lucene_query
from graph.memory.read.search import (
    Scope,
    SearchStats,
    keyword_events,
    keyword_facts,
    semantic_events,
    semantic_facts,
)
from graph.memory.read.words import keywords
from graph.memory.text import fold
from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.memory.write.extract.extraction import normalize_extraction
from graph.memory.write.extract.mentions import collect_mentions
from graph.memory.write.extract.offline import extract_with, load_nlp
from graph.memory.write.reconcile.items import mentions
from graph.memory.write.resolve.decisions import Candidate, resolve_entity, speaker_key
from graph.memory.write.resolve.stage import EntityInfo

KS = (5, 10, 20)
# Session-level recall (what published raw-retrieval systems report on LoCoMo): a session is
# found when a retrieved item holds an evidence turn of it.
SESSION_KS = (5, 10)
_SESSION = re.compile(r"D(\d+):")
# LoCoMo question categories (as the LoCoMo paper's evaluation code maps them)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def session_of(dia: str) -> str:
    """The session of a LoCoMo dia id ("D3:12" → "3"; an id of another form is its own)."""
    m = _SESSION.match(dia)
    return m.group(1) if m else dia


def session_recall(
    ranked: list[str], dia_of: dict[str, set[str]], evidence: set[str], k: int
) -> float:
    """Share of the question's evidence sessions found in the top ``k``: a session counts as
    found when a retrieved item holds one of the evidence turns of that session."""
    wanted = {session_of(d) for d in evidence}
    found = {session_of(d) for item in ranked[:k] for d in dia_of.get(item, set()) & evidence}
    return len(found) / len(wanted) if wanted else 0.0


@dataclass
class Metrics:
    recall: dict[int, float] = field(default_factory=lambda: dict.fromkeys(KS, 0.0))
    # Σ session recall@k (session_recall) over the questions
    session: dict[int, float] = field(default_factory=lambda: dict.fromkeys(SESSION_KS, 0.0))
    rr: float = 0.0
    pool: float = 0.0  # recall of the whole ranked list (the candidate pool)
    pool_size: int = 0
    n: int = 0
    ms: float = 0.0
    per_conv: dict[str, list[float]] = field(default_factory=dict)  # conv → [sum R@10, n]
    per_cat: dict[int, list[float]] = field(default_factory=dict)  # category → [R@10, MRR, n]
    pool_cat: dict[int, float] = field(default_factory=dict)  # category → Σ pool recall

    def add(
        self,
        ranked: list[str],
        dia_of: dict[str, set[str]],
        evidence: set[str],
        ms: float,
        conv: str = "",
        category: int = 0,
    ) -> None:
        self.n += 1
        self.ms += ms
        for k in SESSION_KS:
            self.session[k] += session_recall(ranked, dia_of, evidence, k)
        for k in KS:
            found: set[str] = set()
            for item in ranked[:k]:
                found |= dia_of.get(item, set()) & evidence
            self.recall[k] += len(found) / len(evidence)
            if k == 10:
                cell = self.per_conv.setdefault(conv, [0.0, 0.0])
                cell[0] += len(found) / len(evidence)
                cell[1] += 1
                cat = self.per_cat.setdefault(category, [0.0, 0.0, 0.0])
                cat[0] += len(found) / len(evidence)
                cat[2] += 1
        found = set()
        for item in ranked:
            found |= dia_of.get(item, set()) & evidence
        self.pool += len(found) / len(evidence)
        self.pool_cat[category] = self.pool_cat.get(category, 0.0) + len(found) / len(evidence)
        self.pool_size += len(ranked)
        for rank, item in enumerate(ranked, 1):
            if dia_of.get(item, set()) & evidence:
                self.rr += 1.0 / rank
                self.per_cat[category][1] += 1.0 / rank
                break

    def r(self, k: int) -> float:
        return self.recall[k] / max(1, self.n)

    def session_r(self, k: int) -> float:
        """Session recall@k averaged over the questions."""
        return self.session[k] / max(1, self.n)

    def conv_r10(self, conv: str) -> float:
        s, n = self.per_conv.get(conv, [0.0, 0.0])
        return s / n if n else 0.0

    def by_category(self) -> str:
        """ "cat 1 (n) R@10/MRR …" for every LoCoMo category seen (1 multi-hop, 2 temporal,
        3 open-domain, 4 single-hop)."""
        return "  ".join(
            f"{CATEGORIES.get(c, str(c))} ({int(n)}) {r / n:.3f}/{rr / n:.3f}"
            for c, (r, rr, n) in sorted(self.per_cat.items())
            if n
        )

    def pool_by_category(self) -> str:
        """Recall of the whole ranked list (the candidate pool) per category."""
        return "  ".join(
            f"{CATEGORIES.get(c, str(c))} {self.pool_cat.get(c, 0.0) / n:.3f}"
            for c, (_, _, n) in sorted(self.per_cat.items())
            if n
        )

    def row(self, name: str) -> str:
        n = max(1, self.n)
        cells = " ".join(f"{self.recall[k] / n:9.3f}" for k in KS)
        sessions = " ".join(f"{self.session[k] / n:9.3f}" for k in SESSION_KS)
        return f"{name:<24} {cells} {self.rr / n:8.3f} {sessions} {self.ms / n:9.1f}"


def top(items: list[tuple[float, str]], n: int = 20) -> list[str]:
    return [i for _, i in sorted(items, key=lambda x: -x[0])][:n]


async def vector_hits(
    ex: Executor, agent: str, vec: list[float], counts: dict[str, int] | None = None
) -> dict[str, list[tuple[float, str]]]:
    """Vector top-20 of the agent's facts and turns, by retrieve's own strategy: an exact
    cosine scan while the agent holds at most ``exact_scan_max_facts`` items (every dev-set
    conversation), the HNSW index over-fetched until the agent has 20 hits above that (an
    exact scan of 100k facts takes seconds a vector service would never spend)."""
    if counts is None:
        counts = (await ex.run("read/agent_counts", {"agent_id": agent}, read=True))[0]
    cfg, scope = RetrieveConfig(), Scope(agent, None, vec, 0.0)
    common = {
        "limit": 20,
        "min_cosine": -1.0,
        "exact_max": cfg.budgets.exact_scan_max_facts,
        "cap": cfg.budgets.overfetch_cap,
    }
    facts, events = await asyncio.gather(
        semantic_facts(
            ex,
            scope,
            agent_facts=counts["agent_facts"],
            total_facts=counts["total_facts"],
            stats=SearchStats(),
            **common,
        ),
        semantic_events(
            ex,
            scope,
            agent_events=counts["agent_events"],
            total_events=counts["total_events"],
            stats=SearchStats(),
            **common,
        ),
    )
    return {
        "facts": [(f.scores.semantic, f.id) for f in facts],
        "events": [(e.semantic, e.id) for e in events],
    }


async def bm25_hits(
    ex: Executor,
    agent: str,
    question: str,
    vec: list[float],
    counts: dict[str, int],
    *,
    field: str = "text",
    prefix: int = 0,
    limit: int = 20,
) -> dict[str, list[tuple[float, str]]]:
    """BM25 top-``limit`` of the agent's facts and turns: the full-text index over-fetched until
    the agent has that many hits (the same exact strategy as retrieve; a fixed huge k collects
    every agent's hits and exhausts the server's transaction memory on a shared database).
    Default: plain BM25 on whole words; ``field="terms", prefix=5`` is retrieve's keyword
    signal on cut words."""
    q = lucene_query(keywords(question, limit=32), prefix=prefix)
    q = f"{field}:({q})" if q else q
    if not q:
        return {"facts": [], "events": []}
    scope = Scope(agent, None, vec, 0.0)
    facts, events = await asyncio.gather(
        keyword_facts(
            ex,
            scope,
            lucene=q,
            limit=limit,
            agent_facts=counts["agent_facts"],
            total_facts=counts["total_facts"],
            cap=200_000,
            stats=SearchStats(),
        ),
        keyword_events(
            ex,
            scope,
            lucene=q,
            limit=limit,
            agent_events=counts["agent_events"],
            total_events=counts["total_events"],
            cap=200_000,
            stats=SearchStats(),
        ),
    )
    # normalised BM25 keeps the BM25 order within each list; the two lists are merged by it
    return {
        "facts": [(f.scores.keyword, f.id) for f in facts],
        "events": [(e.keyword, e.id) for e in events],
    }


def by_mode(hits: dict[str, list[tuple[float, str]]]) -> dict[str, list[str]]:
    return {"facts": top(hits["facts"]), "turns+facts": top(hits["facts"] + hits["events"])}


def rrf(*lists: list[str], k: int = 60) -> list[str]:
    """Reciprocal-rank fusion of ranked id lists (Graphiti's hybrid search)."""
    score: dict[str, float] = {}
    for ranked in lists:
        for rank, item in enumerate(ranked, 1):
            score[item] = score.get(item, 0.0) + 1.0 / (k + rank)
    return top([(s, i) for i, s in score.items()])


async def vector_baseline(ex: Executor, agent: str, vec: list[float]) -> list[str]:
    """Vector top-20 of facts and turns merged by cosine (the peers benchmark's ranker)."""
    return by_mode(await vector_hits(ex, agent, vec))["turns+facts"]


async def bm25_baseline(ex: Executor, agent: str, question: str, vec: list[float]) -> list[str]:
    """BM25 top-20 of facts and turns merged by score (the peers benchmark's ranker)."""
    counts = (await ex.run("read/agent_counts", {"agent_id": agent}, read=True))[0]
    return by_mode(await bm25_hits(ex, agent, question, vec, counts))["turns+facts"]


@dataclass
class EntityLinks:
    """What :func:`link_entities` found for one conversation's facts."""

    entities: list[StructuredEntity] = field(default_factory=list)  # besides the speakers
    relations: list[StructuredRelation] = field(default_factory=list)
    linked_facts: int = 0  # facts that mention at least one entity besides their subject


def link_entities(facts: list[StructuredFact], speakers: list[str], nlp: Any = None) -> EntityLinks:
    """Link each fact to the entities it mentions, as the offline write path does for the
    facts it extracts: the offline extractor (spaCy NER + dependency rules, ``extract_with``)
    runs on the fact's text with the fact's speaker; its names (``collect_mentions``) are
    resolved by ``resolve_entity`` (alias / slug / person prefix / string similarity, no LLM:
    an ambiguous name is a new entity) against the conversation's entities so far, the
    speakers first; a fact is linked to the resolved entities its text names
    (``planning.mentions``, subject excluded) and the extracted relations become entity
    relationships. Nothing is dataset-specific. Sets ``fact.entities`` (canonical names,
    which the declared entities resolve in ``remember``) in place."""
    nlp = nlp if nlp is not None else load_nlp()
    known: dict[str, tuple[str, str]] = {speaker_key(s): (s, "person") for s in speakers}
    aliases: dict[str, str] = {fold(s): speaker_key(s) for s in speakers}
    surfaces: dict[str, list[str]] = {k: [n] for k, (n, _) in known.items()}
    links = EntityLinks()
    seen_rel: set[tuple[str, str, str]] = set()
    for fact in facts:
        speaker = fact.speaker or fact.subject
        ex = normalize_extraction(extract_with(nlp, fact.text, speaker), speaker)
        name_map: dict[str, str] = {fold(speaker): speaker_key(speaker)}
        ents: dict[str, EntityInfo] = {}
        for m in collect_mentions(ex):
            cands = [Candidate(k, n, t, 0.0) for k, (n, t) in known.items()]
            r = resolve_entity(
                m.surface, m.type, speaker, aliases, known, cands, embeddings_available=False
            )
            key = r.key  # an ambiguous name is new: there is no LLM to ask offline
            if key not in known:
                known[key] = (r.name, r.type)
                surfaces[key] = [r.name]
            for text in (m.surface, *m.aliases):
                if fold(text):
                    aliases.setdefault(fold(text), key)
                    name_map.setdefault(fold(text), key)
                    if text not in surfaces[key]:
                        surfaces[key].append(text)
            name, etype = known[key]
            info = ents.setdefault(key, EntityInfo(key, name, etype, False))
            info.surfaces += [m.surface, *m.aliases]
        subject = aliases.get(fold(fact.subject), speaker_key(speaker))
        mentioned = [k for k in mentions(fact.text, list(ents.values())) if k != subject]
        fact.entities = [known[k][0] for k in mentioned]
        links.linked_facts += bool(mentioned)
        for rel in ex.relations:
            src, dst = name_map.get(fold(rel.source)), name_map.get(fold(rel.target))
            if src and dst and src != dst and (src, dst, rel.type) not in seen_rel:
                seen_rel.add((src, dst, rel.type))
                links.relations.append(
                    StructuredRelation(
                        known[src][0], known[dst][0], rel.type, confidence=rel.confidence
                    )
                )
    speaker_keys = {speaker_key(s) for s in speakers}
    links.entities = [
        StructuredEntity(name, etype, key=key, aliases=[a for a in surfaces[key] if a != name])
        for key, (name, etype) in known.items()
        if key not in speaker_keys
    ]
    return links
