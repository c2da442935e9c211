"""The query's words, cut once for the whole read side: its significant words
(``keywords``: the keyword signal's query, the planner's entity words) and their stems
(``stems``: the first ``PREFIX_CHARS`` characters, folded; what the full-text ``terms`` field
holds, and what spreading activation and relation answers match relation types' words
against). Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from graph.memory.text import fold, normalize

__all__ = ["PREFIX_CHARS", "STOPWORDS", "TextView", "keywords", "stems", "text_view"]

_STOPWORD_TEXT = """a an the and or but of to in on at by for with from as is are was were be been
being do does did have has had i me my mine you your yours he him his she her hers it its we us
our they them their what which who whom whose where when why how this that these those there here
not no yes any all some about into over after before than then so if also just very can could
would should will shall may might must tell know think like get got ever much many more most o os
as um uma uns umas de do da dos das em no na nos nas por para pra com sem sobre que qual quais
quem onde quando como porque e ou mas se eu me meu minha meus minhas voce vc ele ela eles elas nos
nosso nossa seu sua seus suas isso isto esse essa este esta aquele aquela ja nao sim ao aos foi
era ser estar tem ter sabe"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# The keyword signal searches ``terms``, the stored text's words each cut to its first
# PREFIX_CHARS characters (schema/backfill_terms), with the question's words cut the same way:
# one truncation serves as a light stemmer in every language ("temperaturas" and
# "temperature" → "tempe") and meets the cognates a mixed-language memory is full of
# ("precipitação" / "precipitation" → "preci", "sedimentos" / "sediments" → "sedim"), where
# whole words meet only names and numbers; BM25 still weighs each cut word by its rarity. Five
# characters is the truncation length cross-language retrieval settles on for European
# languages; the index folds accents ("água" and "agua" meet).
PREFIX_CHARS = 5


def keywords(query: str, limit: int = 12) -> tuple[str, ...]:
    """Significant words (> 2 chars, not stopwords), query order, deduplicated, accents kept."""
    out: dict[str, None] = {}
    for word in normalize(query).split():
        if len(word) > 2 and fold(word) not in STOPWORDS:
            out.setdefault(word, None)
    return tuple(list(out)[:limit])


def stems(query: str) -> list[str]:
    """The query's significant words cut to their first ``PREFIX_CHARS`` characters, folded,
    sorted: "published" → "publi" matches the relation-type words "published" and
    "publisher"."""
    return sorted(
        {fold(w).lower()[:PREFIX_CHARS] for w in keywords(query, limit=32) if w.isalnum()}
    )


@dataclass(frozen=True)
class TextView:
    """What the read side reads of a stored text, cut once: its significant words cut as the
    keyword signal cuts them, their consecutive pairs, the folded text padded with spaces (for
    whole-name matches) and log1p of its length in words."""

    stems: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    folded: str
    length: float


@lru_cache(maxsize=65_536)
def text_view(text: str) -> TextView:
    """The text's :class:`TextView`, normalised once (cached: the same facts come back
    retrieve after retrieve)."""
    folded = fold(text)
    words = [w[:PREFIX_CHARS] for w in folded.split() if len(w) > 2 and w not in STOPWORDS]
    return TextView(
        frozenset(words), frozenset(pairwise(words)), f" {folded} ", math.log1p(len(text.split()))
    )
