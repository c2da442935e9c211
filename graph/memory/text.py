"""Shared text utilities for the memory pipelines: normalisation, slugs, keys, hashes, tokens.

Everything here is pure and deterministic. The rules are part of the data-model contract
(docs/data-model.md): ``normalize`` feeds ``Fact.normalized`` and ``content_hash``; ``fold``
feeds ``Alias.norm``; ``entity_key`` is ``type:slug``.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "RELATION_WORDS",
    "clean_text",
    "content_hash",
    "detect_language",
    "entity_key",
    "escape_part",
    "estimate_tokens",
    "event_embedding_text",
    "fold",
    "idempotency_digest",
    "join_parts",
    "normalize",
    "normalize_relation_type",
    "normalize_type",
    "relation_words",
    "slugify",
    "token_set",
    "word_ngrams",
]

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")
_NON_SLUG = re.compile(r"[^a-z0-9]+")
_REL_TYPE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# C0/C1 control characters except tab and newline; lone surrogates (broken UTF-8 decoded with
# surrogateescape) are handled separately in clean_text.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_WORD = re.compile(r"\w+", re.UNICODE)


def clean_text(text: str) -> str:
    """Make arbitrary input storable: lone surrogates replaced, control characters removed.

    Args:
        text: any Python string (may contain ``\\udce9``-style surrogates from broken UTF-8).

    Returns:
        The text NFC-normalised, with U+FFFD in place of undecodable bytes.
    """
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        text = "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return unicodedata.normalize("NFC", _CONTROL.sub("", text))


def event_embedding_text(text: str, speaker: str | None) -> str:
    """The text an event (one conversation turn) is embedded as: ``"Speaker says: text"``.

    A turn is written in the first person ("I ran a charity race") while a question about it
    names the person ("When did Melanie run a charity race?"); without the speaker the vector
    cannot tell whose turn it is. Every event writer (write, async write, ``remember``) uses
    this one rule so imported and written turns are searched alike. The stored ``text`` stays
    verbatim. (LoCoMo dev, 759 questions, the evidence turn among all turns ranked by cosine
    alone, R@10: text only 0.306, "Speaker: text" 0.502, "Speaker says: text" 0.530.)
    """
    name = (speaker or "").strip()
    return f"{name} says: {text}" if name else text


def idempotency_digest(key: str) -> str:
    """What a write receipt stores for a client's idempotency key: the sha256 of the WHOLE key
    (keys differing only after any prefix never collide; any length fits the index)."""
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def normalize(text: str) -> str:
    """NFKC, lowercase, punctuation removed, whitespace collapsed (``Fact.normalized``)."""
    text = unicodedata.normalize("NFKC", text).lower()
    return _SPACE.sub(" ", _PUNCT.sub(" ", text)).strip()


def fold(text: str) -> str:
    """Accent-insensitive ``normalize`` (``Alias.norm``): "São Paulo" → "sao paulo"."""
    normalized = normalize(text)
    if normalized.isascii():  # nothing to decompose (most texts: the per-character walk skipped)
        return normalized
    decomposed = unicodedata.normalize("NFKD", normalized)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def slugify(text: str) -> str:
    """ASCII snake_case slug: "Clara Rezende" → "clara_rezende"; "" when nothing is left."""
    return _NON_SLUG.sub("_", fold(text)).strip("_")[:80]


def normalize_type(entity_type: str | None) -> str:
    """Free-form entity type, lowercase slug; "thing" when empty."""
    return slugify(entity_type or "") or "thing"


_MAX_SLUG = 80
_HASH_SLUG = re.compile(r"x[0-9a-f]{12}")


def _sha12(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:12]


def entity_key(name: str, entity_type: str | None = None) -> str:
    """``type:slug`` key of an entity ("person:clara_rezende").

    Two different slugs never give the same key. A name with no ASCII letters or digits
    (e.g. purely CJK) gets ``x<hash>``; a slug that merely looks like that gets ``__``
    appended; a slug over 80 characters keeps 66 of them plus ``__<hash of the whole>``
    (a plain cut made "<long speaker>'s mom" the speaker's own key). A slug never holds
    ``__`` (runs of other characters collapse to one ``_``), so these forms cannot be typed
    in; every other key is unchanged from before.
    """
    slug = _NON_SLUG.sub("_", fold(name)).strip("_")
    if not slug:
        slug = "x" + _sha12(name)
    elif len(slug) > _MAX_SLUG:
        slug = f"{slug[: _MAX_SLUG - 14]}__{_sha12(slug)}"
    elif _HASH_SLUG.fullmatch(slug):
        slug += "__"
    return f"{normalize_type(entity_type)}:{slug}"


def escape_part(part: str) -> str:
    """One part of a ``|``-joined id with ``\\`` and ``|`` escaped (see :func:`join_parts`)."""
    return part.replace("\\", "\\\\").replace("|", "\\|")


def join_parts(*parts: str) -> str:
    """``|``-join of parts that no other tuple gives (each part escaped: an unescaped ``|``
    only ever separates). Parts without ``|`` or ``\\`` join exactly as a plain
    ``"|".join`` did, so ids and hashes stored before keep their values."""
    return "|".join(escape_part(p) for p in parts)


def normalize_relation_type(raw: str | None) -> str | None:
    """snake_case relation type validated against ``[a-z][a-z0-9_]{0,63}``; None if hopeless.

    "works at" → "works_at", "`x`" → "x", "Married-To" → "married_to", "123" → None.
    """
    slug = slugify(raw or "")[:64].strip("_")
    return slug if _REL_TYPE.match(slug) else None


def content_hash(agent_id: str, subject_key: str, normalized: str) -> str:
    """sha256 of ``agent_id|subject_key|normalized``, first 32 hex characters."""
    payload = join_parts(agent_id, subject_key, normalized).encode("utf-8", "replace")
    return hashlib.sha256(payload).hexdigest()[:32]


def estimate_tokens(text: str) -> int:
    """Cheap token estimate (~4 characters per token) for context budgets."""
    return max(1, (len(text) + 3) // 4) if text else 0


def token_set(text: str) -> set[str]:
    """Folded word tokens of a text (for overlap scores and contradiction checks)."""
    return set(_WORD.findall(fold(text)))


def word_ngrams(text: str, max_n: int = 4) -> list[str]:
    """Every folded word n-gram (1..max_n) of a text, in order, without duplicates.

    These are the word-boundary candidates looked up in the alias index.
    """
    words = fold(text).split()
    seen: dict[str, None] = {}
    for n in range(1, max_n + 1):
        for i in range(len(words) - n + 1):
            seen.setdefault(" ".join(words[i : i + n]), None)
    return list(seen)


def dedupe(items: Iterable[str]) -> list[str]:
    """Order-preserving de-duplication."""
    return list(dict.fromkeys(items))


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS: dict[str, frozenset[str]] = {
    "en": _words(
        "the a an is are was were i my you he she it we they and or of to in on at for with "
        "from this that not no have has had be been will would what when where who whom whose "
        "why how which does did"
    ),
    "pt": _words(
        "o a os as um uma é são eu meu minha você ele ela nós eles e ou de do da dos das em no "
        "na para com não mais mas que foi está estou sou moro mora moram onde quando quem qual "
        "quais"
    ),
    "es": _words(
        "el la los las un una es son yo mi tú él ella nosotros y o de del en para con no más "
        "pero que fue está estoy soy vivo dónde donde cuándo cuando quién quien cuál cual"
    ),
    # French is told apart so that its "de", "la", "en" do not vote it Spanish (the offline
    # extractor has rules for Portuguese and Spanish only).
    "fr": _words(
        "le la les un une des est sont je j l d qu n s mon ma mes tu il elle nous vous ils "
        "elles et ou du au aux dans pour avec ne pas plus mais qui que c ce cette été suis habite "
        "quand comment pourquoi quel quelle"
    ),
}


# The question words are stop words too: a short question ("Where does Clara live?", "Onde o
# Pedro mora?") often holds no other, and its language decides how its cosines are read.
# Each stop word → the languages it votes for (one lookup per word of a text).
_VOTES: dict[str, tuple[str, ...]] = {
    word: tuple(lang for lang, stop in _STOPWORDS.items() if word in stop)
    for word in set().union(*_STOPWORDS.values())
}


def detect_language(text: str) -> str | None:
    """Cheap stop-word vote ("en", "pt", "es", "fr"); None when nothing stands out. Good enough to
    tag facts, not to translate them."""
    scores = dict.fromkeys(_STOPWORDS, 0)
    for word in normalize(text).split():
        for lang in _VOTES.get(word, ()):
            scores[lang] += 1
    best = max(scores, key=lambda k: scores[k])
    ranked = sorted(scores.values(), reverse=True)
    return best if ranked[0] >= 1 and ranked[0] > ranked[1] else None


# Words of a question in Portuguese or Spanish → the English word a relation type is written
# with ("Onde o Pedro mora?" asks for ``lives_in`` as "Where does Pedro live?" does). Keys are
# folded word beginnings, matched as prefixes of the question's folded words.
RELATION_WORDS: dict[str, str] = {
    "mora": "live",
    "moro": "live",
    "vive": "live",
    "vivo": "live",
    "reside": "live",
    "trabalh": "work",
    "trabaj": "work",
    "estud": "stud",
    "nasc": "born",
    "naci": "born",
    "casad": "married",
    "casou": "married",
    "gost": "like",
    "ador": "like",
    "irma": "sibling",
    "herman": "sibling",
    "namor": "dating",
    "chefe": "reports",
    "jefe": "reports",
}


def relation_words(text: str) -> list[str]:
    """The English relation words a Portuguese or Spanish question's words stand for (see
    ``RELATION_WORDS``), in order, without duplicates."""
    out: dict[str, None] = {}
    for word in fold(text).split():
        for start, english in RELATION_WORDS.items():
            if word.startswith(start):
                out.setdefault(english, None)
    return list(out)
