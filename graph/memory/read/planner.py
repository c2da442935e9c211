"""The deterministic planner: greeting skip, aggregation, broad queries, entity resolution.

No LLM and no randomness: the same query against the same agent schema always gives the same
plan. The work is split so that a greeting costs zero database queries:

1. :func:`casual_plan` (pure) — a greeting/casual message returns a ``skip`` plan at once;
2. :func:`lookup_terms` (pure) — the n-grams and slugs the one catalog read needs;
3. :func:`build_plan` (pure) — combines the query with the catalog rows that read returned
   (entity types present for the agent, alias / slug / name-prefix matches);
4. :func:`expand_plan` (pure) — adds 1-hop neighbours of the named entities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from graph.memory.read.models import EntityMatch, RetrievalPlan
from graph.memory.read.words import PREFIX_CHARS, STOPWORDS, keywords
from graph.memory.text import fold, normalize, slugify, word_ngrams
from graph.plan_shapes import padded

__all__ = [
    "CatalogRow",
    "LookupTerms",
    "agent_lucene",
    "aggregation_types",
    "build_plan",
    "casual_plan",
    "expand_plan",
    "is_broad",
    "is_casual",
    "keyword_terms",
    "keywords",
    "lookup_terms",
    "lucene_query",
]

# Whole-message greetings / small talk (folded: lowercase, accents and punctuation removed).
_CASUAL_WORDS = (
    r"hi|hello|hey|hiya|howdy|yo|sup|hey there|hi there|hello there|good morning|good afternoon|"
    r"good evening|good night|morning|evening|thanks|thank you|thank you so much|thx|ty|"
    r"thanks a lot|cheers|ok|okay|k|kk|cool|nice|great|awesome|sure|yes|no|yep|nope|bye|goodbye|"
    r"see you|see ya|later|lol|haha|hahaha|hmm|how are you|how are you doing|whats up|what s up|"
    r"oi|ola|e ai|eai|bom dia|boa tarde|boa noite|obrigado|obrigada|muito obrigado|"
    r"muito obrigada|valeu|vlw|tchau|ate logo|ate mais|tudo bem|tudo bom|beleza|blz|certo|"
    r"legal|show|sim|nao|kkk|kkkk|rs|como vai|como voce esta|opa|salve"
)
# A message is casual when it is a run of these words, spaces optional ("okok", "kkkkk").
# Matched by a dynamic programme over a trie (linear in the message length), not by a regex:
# ``^(?:(?:words)\s*)+$`` backtracks exponentially on "kkkk…k x".
_MAX_CASUAL_CHARS = 200  # longer messages are never small talk
_CASUAL_TRIE: dict[str, Any] = {}
for _word in _CASUAL_WORDS.split("|"):
    _node = _CASUAL_TRIE
    for _ch in _word:
        _node = _node.setdefault(_ch, {})
    _node[""] = {}  # end of a word


def _casual_run(folded: str) -> bool:
    """True when ``folded`` is a concatenation of casual words and spaces (O(len × longest
    word): every position is expanded at most once)."""
    n = len(folded)
    reachable = [False] * (n + 1)
    reachable[0] = True
    for start in range(n):
        if not reachable[start]:
            continue
        if folded[start] == " ":
            reachable[start + 1] = True
            continue
        node = _CASUAL_TRIE
        pos = start
        while pos < n and folded[pos] in node:
            node = node[folded[pos]]
            pos += 1
            if "" in node:
                reachable[pos] = True
    return reachable[n]


_BROAD = re.compile(
    r"\b(?:tell me (?:everything|all|more) about|everything (?:you know )?about|"
    r"what do you know about|what you know about|all about|summari[sz]e|"
    r"(?:me )?(?:conta|conte|fale|fala|diga|diz) tudo (?:sobre|de|do|da)|"
    r"tudo (?:sobre|que voce sabe)|"
    r"o que (?:voce|vc) sabe (?:sobre|de|do|da)|resum[ao])\b"
)

# "list my friends": a trigger word, then (anywhere later) a determiner and the noun. Two
# searches instead of ``trigger.*?determiner`` so every trigger does not rescan the rest.
_AGG_TRIGGER = re.compile(
    r"\b(?:who are|what are|which are|list|show|name|tell me|enumerate|quais sao|quem sao|"
    r"quais|liste|listar|lista|mostre|mostra|me diga|cite)\b"
)
_AGG_NOUN = re.compile(
    r"\b(?:my|all my|all|meus|minhas|todos os meus|todas as minhas|todos os|todas as|os|as)"
    r" (\w+)"
)

# Nouns of aggregation questions → entity types they may refer to (only types the agent has
# are used). Unknown nouns are tried as a type directly (singular form).
_TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "friends": ("person",),
    "friend": ("person",),
    "people": ("person",),
    "contacts": ("person",),
    "family": ("person",),
    "colleagues": ("person",),
    "coworkers": ("person",),
    "kids": ("person",),
    "children": ("person",),
    "amigos": ("person",),
    "amigas": ("person",),
    "pessoas": ("person",),
    "contatos": ("person",),
    "familiares": ("person",),
    "colegas": ("person",),
    "filhos": ("person",),
    "projects": ("project",),
    "projetos": ("project",),
    "companies": ("organization", "company"),
    "organizations": ("organization", "company"),
    "clients": ("organization", "company"),
    "employers": ("organization", "company"),
    "empresas": ("organization", "company"),
    "clientes": ("organization", "company"),
    "organizacoes": ("organization", "company"),
    "places": ("place", "location", "city"),
    "cities": ("city", "place", "location"),
    "lugares": ("place", "location", "city"),
    "cidades": ("city", "place", "location"),
    "pets": ("pet", "animal"),
    "animals": ("animal", "pet"),
    "animais": ("animal", "pet"),
    "tools": ("tool",),
    "ferramentas": ("tool",),
    "skills": ("skill",),
    "habilidades": ("skill",),
    "hobbies": ("hobby", "activity"),
    "books": ("book",),
    "livros": ("book",),
    "events": ("event",),
    "eventos": ("event",),
}

# An ambiguous first-name prefix resolves to the entity with this many times the facts of
# any other that shares it.
PREFIX_DOMINANCE = 3

# The catalog's list pads: no alias norm, key slug or name prefix is NUL.
NO_TERM = "\u0000"
NO_SLUG = {"slug": NO_TERM, "gram": NO_TERM}
CATALOG_ITEMS = 2  # the catalog's lists padded to the bucket 2-10 (see LookupTerms.params)


def is_casual(query: str) -> bool:
    """True when the whole message is a greeting / thanks / small talk (English, Portuguese)."""
    folded = fold(query)
    if len(folded) > _MAX_CASUAL_CHARS:
        return False
    return not folded or _casual_run(folded)


def is_broad(query: str) -> bool:
    """True for "tell me everything about X"-style requests."""
    return bool(_BROAD.search(fold(query)))


def casual_plan(query: str) -> RetrievalPlan | None:
    """A ``skip`` plan for greetings and empty queries, else None (pure; no I/O)."""
    if not query or not query.strip():
        return RetrievalPlan(strategy="skip", reason="empty", similarity_query=query)
    if is_casual(query):
        return RetrievalPlan(strategy="skip", reason="greeting", similarity_query=query)
    return None


_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def lucene_escape(term: str) -> str:
    """Escape Lucene query-syntax characters so user text is always matched literally."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene_query(words: Sequence[str], prefix: int = PREFIX_CHARS) -> str:
    """An OR query of the escaped words each cut to its first ``prefix`` characters (for the
    ``terms`` field); ``prefix=0``: the whole words and their accent-folded forms (for the
    ``text`` field: the plain BM25 peers of the benchmarks). "" when no words."""
    terms: dict[str, None] = {}
    for word in words:
        forms = [word.lower()[:prefix]] if prefix else [word, *fold(word).split()]
        for form in forms:
            if form:
                terms.setdefault(lucene_escape(form), None)
    return " OR ".join(terms)


def agent_lucene(lucene: str, agent_id: str) -> str:
    """``lucene`` limited to one agent inside the full-text index: the query's words match the
    ``terms`` field only, and a zero-weight phrase on the ``agent_id`` field keeps this agent's
    documents (its tokens in order; the statement still checks ``agent_id`` exactly, so an id
    whose tokens contain another's is filtered there). Zero weight: BM25 scores are those of
    the words alone. "" stays "" (keyword signal off)."""
    if not lucene:
        return ""
    if not any(ch.isalnum() for ch in agent_id):  # no token to match: the words alone
        return f"terms:({lucene})"
    phrase = agent_id.replace("\\", "\\\\").replace('"', '\\"')
    return f'terms:({lucene}) AND agent_id:"{phrase}"^0'


def keyword_terms(plan: RetrievalPlan, names: bool = True) -> list[str]:
    """The words of the keyword signal. ``names=True``: the query's keywords plus the
    canonical names of the named entities (alias priming). ``names=False``: the words that
    resolved to a named entity are left out, so BM25 scores the rest of the question (the
    graph signal already covers the entity, and a rare name's IDF would otherwise dominate)."""
    words = list(plan.keywords)
    named = [e for e in plan.entities if e.named]
    if not names:
        covered = {
            fold(w) for e in named for text in (e.name, e.matched) for w in normalize(text).split()
        }
        return [w for w in words if fold(w) not in covered]
    for entity in named:
        words.extend(w for w in keywords(entity.name) if w not in words)
    return words


@dataclass(frozen=True)
class LookupTerms:
    """Parameters of the catalog read: alias norms, key slugs and first-name prefixes."""

    norms: tuple[str, ...]
    slugs: tuple[tuple[str, str], ...]  # (slug, the n-gram it came from)
    prefixes: tuple[str, ...]

    def params(self) -> dict[str, Any]:
        """The lists padded with a term nothing is named by (NUL) to at least two items: a
        question of one word or none shares the plan of one of up to ten n-grams
        (``graph.plan_shapes``). Not further: the catalog seeks every slug and prefix once per
        entity type of the agent, so each pad costs a seek per type (padded to eleven, a crowd
        agent's catalog read 45 % more)."""
        return {
            "norms": padded(self.norms, NO_TERM, CATALOG_ITEMS),
            "slugs": padded(
                [{"slug": s, "gram": g} for s, g in self.slugs], NO_SLUG, CATALOG_ITEMS
            ),
            "prefixes": padded(self.prefixes, NO_TERM, CATALOG_ITEMS),
        }


def _content_ngrams(query: str) -> list[str]:
    """Folded 1..4-grams that neither start nor end with a stopword (names rarely do)."""
    grams = []
    for gram in word_ngrams(query, 4):
        words = gram.split()
        if words[0] in STOPWORDS or words[-1] in STOPWORDS:
            continue
        if len(words) == 1 and len(words[0]) < 3:
            continue
        grams.append(gram)
    return grams


def lookup_terms(query: str) -> LookupTerms:
    """Every string the catalog read matches against aliases (``Alias.norm`` = ``fold``),
    entity key slugs and first-name prefixes (pure)."""
    grams = _content_ngrams(query)
    slugs: dict[str, str] = {}
    for gram in grams:
        slug = slugify(gram)
        if slug:
            slugs.setdefault(slug, gram)
    prefixes = [g for g in grams if " " not in g and len(g) >= 3]
    return LookupTerms(tuple(grams), tuple(slugs.items()), tuple(prefixes))


@dataclass(frozen=True)
class CatalogRow:
    """One entity match returned by the catalog read."""

    key: str
    name: str
    type: str
    via: str  # alias | slug | prefix
    matched: str
    facts: int = 0  # prefix rows: facts about the entity (an ambiguous prefix's tie-break)


def _resolve(rows: Iterable[CatalogRow]) -> list[EntityMatch]:
    """Pick entities from raw matches: longer matched phrases win over their sub-phrases; a
    first-name prefix two entities share goes to the one with clearly the most facts (at
    least ``PREFIX_DOMINANCE`` times any other's: "Guilherme" is the Guilherme the memory
    is about, not a misspelt copy of him with one fact), else it is dropped; order is
    deterministic."""
    rank = {"alias": 0, "slug": 1, "prefix": 2}
    best: dict[str, CatalogRow] = {}
    for row in sorted(rows, key=lambda r: (-len(r.matched), rank.get(r.via, 9), r.key)):
        best.setdefault(row.key, row)
    prefix_owners: dict[str, set[str]] = {}
    for row in best.values():
        if row.via == "prefix":
            prefix_owners.setdefault(row.matched, set()).add(row.key)
    for prefix, owners in prefix_owners.items():
        winner = _dominant({k: best[k].facts for k in owners})
        if winner is not None:
            prefix_owners[prefix] = {winner}
            for key in owners - {winner}:
                del best[key]
    chosen: list[CatalogRow] = []
    covered: list[set[str]] = []
    for row in sorted(best.values(), key=lambda r: (-len(r.matched), rank.get(r.via, 9), r.key)):
        words = set(slugify(row.matched).split("_"))
        if row.via == "prefix" and len(prefix_owners.get(row.matched, ())) > 1:
            continue
        # "marcos" must not add person:marcos_silva when "marcos tavares" already matched.
        if any(words < c for c in covered):
            continue
        chosen.append(row)
        covered.append(words)
    return [
        EntityMatch(key=r.key, name=r.name, type=r.type, source=r.via, matched=r.matched)
        for r in sorted(chosen, key=lambda r: r.key)
    ]


def _dominant(facts: dict[str, int]) -> str | None:
    """The key whose fact count is at least ``PREFIX_DOMINANCE`` times every other's."""
    if len(facts) < 2:
        return None
    ranked = sorted(facts.items(), key=lambda kv: (-kv[1], kv[0]))
    (top, most), (_, second) = ranked[0], ranked[1]
    return top if most >= PREFIX_DOMINANCE * max(1, second) else None


def aggregation_types(query: str, agent_types: Iterable[str]) -> tuple[str, ...]:
    """Entity types an aggregation question asks for, only those the agent actually has."""
    folded = fold(query)
    trigger = _AGG_TRIGGER.search(folded)
    match = _AGG_NOUN.search(folded, trigger.end()) if trigger else None
    if not match:
        return ()
    noun = match.group(1)
    existing = set(agent_types)
    wanted = list(_TYPE_WORDS.get(noun, ()))
    for form in (noun, noun[:-1] if noun.endswith("s") else noun, slugify(noun)):
        wanted.append(form)
    return tuple(sorted({t for t in wanted if t in existing}))


def build_plan(query: str, agent_types: Iterable[str], rows: Iterable[CatalogRow]) -> RetrievalPlan:
    """The full plan from the query and the catalog read (pure, deterministic)."""
    skip = casual_plan(query)
    if skip is not None:
        return skip
    types = tuple(sorted(set(agent_types)))
    entities = tuple(_resolve(rows))
    patterns = aggregation_types(query, types)
    broad = is_broad(query)
    reason = "aggregation" if patterns else "broad" if broad else "deterministic"
    return RetrievalPlan(
        strategy="multi_signal",
        reason=reason,
        similarity_query=query,
        entities=entities,
        pattern_types=patterns,
        broad_query=broad,
        keywords=keywords(query),
    )


def expand_plan(
    plan: RetrievalPlan, neighbours: Iterable[dict[str, Any]], limit: int = 10
) -> RetrievalPlan:
    """Add 1-hop neighbours (rows with key/name/type/strength) of the named entities."""
    known = {e.key for e in plan.entities}
    extra: list[EntityMatch] = []
    ordered = sorted(neighbours, key=lambda r: (-float(r.get("strength") or 0.0), r["key"]))
    for row in ordered:
        if row["key"] in known or len(extra) >= limit:
            continue
        known.add(row["key"])
        extra.append(
            EntityMatch(
                key=row["key"],
                name=row.get("name") or row["key"],
                type=row.get("type") or "thing",
                source="expansion",
            )
        )
    if not extra:
        return plan
    return replace(plan, entities=plan.entities + tuple(sorted(extra, key=lambda e: e.key)))
