"""A synthetic but plausible memory to pre-fill an agent with, for the write-growth benchmark
(``python -m tests.bench.bench_write --growth``).

Names are person names ("Marta J. Okafor"), organisations ("Okafor Logistics") and places
("North Elsen"); facts are short sentences about them ("Marta J. Okafor volunteers at the food
bank (Porto, 2014)"), a tenth of them about the speaker, so one subject is as heavy as a real
agent's speaker becomes. Vectors are supplied by the caller (:class:`TableEmbedder`): every
distinct base name and fact template is embedded once with the real model, and each variant
gets its base's vector plus a little noise, so 100k entities cost seconds, not an hour of
MiniLM, while a message's names meet neighbours as close as real ones.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation
from graph.providers import Embedder

__all__ = ["Prefill", "TableEmbedder", "build_prefill"]

FIRST = [
    "Marta",
    "Joao",
    "Aiko",
    "Tomasz",
    "Ingrid",
    "Kwame",
    "Lucia",
    "Rohan",
    "Elif",
    "Mateo",
    "Sana",
    "Pieter",
    "Amara",
    "Yusuf",
    "Carmen",
    "Dmitri",
    "Nadia",
    "Oskar",
    "Leila",
    "Tobias",
    "Femi",
    "Greta",
    "Ravi",
    "Ines",
    "Hugo",
    "Mei",
    "Anders",
    "Zara",
    "Bruno",
    "Priya",
    "Emil",
    "Noor",
    "Felix",
    "Hana",
    "Dario",
    "Alma",
    "Kenji",
    "Sofia",
    "Omar",
    "Vera",
    "Lars",
    "Beatriz",
    "Ivan",
    "Chloe",
    "Samir",
    "Ada",
    "Rafa",
    "Lena",
    "Milan",
    "Rosa",
    "Teo",
    "Yara",
    "Nils",
    "Clara",
    "Amir",
    "Lotte",
    "Paulo",
    "Eva",
    "Jonas",
    "Irene",
]
LAST = [
    "Okafor",
    "Lindqvist",
    "Moreau",
    "Tanaka",
    "Kowalski",
    "Haddad",
    "Ferreira",
    "Novak",
    "Brennan",
    "Castillo",
    "Ivanova",
    "Mensah",
    "Nakamura",
    "Petrov",
    "Rossi",
    "Schneider",
    "Costa",
    "Dubois",
    "Hansen",
    "Yilmaz",
    "Nguyen",
    "Almeida",
    "Fischer",
    "Kaur",
    "Lopez",
    "Marsh",
    "Oduya",
    "Pereira",
    "Quist",
    "Romero",
    "Sato",
    "Toivonen",
    "Varga",
    "Weber",
    "Zhang",
    "Abbott",
    "Baptiste",
    "Conti",
    "Duarte",
    "Eriksen",
    "Fontaine",
    "Gallo",
    "Holm",
    "Iqbal",
    "Jansen",
    "Keane",
    "Lund",
    "Mbeki",
    "Nilsson",
    "Olsen",
    "Park",
    "Reyes",
    "Silva",
    "Thorne",
    "Urbina",
    "Vidal",
    "Walsh",
    "Xu",
    "Young",
    "Zubiri",
]
ORG_SUFFIX = [
    "Logistics",
    "Labs",
    "Partners",
    "Foods",
    "Studio",
    "Health",
    "Robotics",
    "Bank",
    "Press",
    "Motors",
    "Energy",
    "Bakery",
    "Clinic",
    "Systems",
    "Books",
    "Records",
    "Ventures",
    "Textiles",
    "Airlines",
    "Insurance",
]
PLACE_PREFIX = ["North", "South", "East", "West", "Upper", "Lower", "Old", "New", "Port", "Lake"]
PLACE_ROOT = [
    "Elsen",
    "Marby",
    "Calder",
    "Ravenna",
    "Tolva",
    "Brisk",
    "Ostrand",
    "Velm",
    "Harrow",
    "Quenby",
    "Sallow",
    "Tarn",
    "Ulme",
    "Wexley",
    "Yarrow",
    "Zell",
    "Aldmoor",
    "Bexham",
    "Corran",
    "Dunmere",
]
PHRASES = (
    "volunteers at the food bank",
    "plays the cello in a community orchestra",
    "moved into a flat near the harbour",
    "is training for a half marathon",
    "works night shifts at the hospital",
    "adopted a rescue dog called Pip",
    "runs a small pottery workshop",
    "is learning Japanese in evening classes",
    "hates flying and takes the train",
    "coaches a youth football team",
    "grows tomatoes on the balcony",
    "writes a newsletter about birds",
    "restores old motorbikes in the garage",
    "is allergic to peanuts",
    "bakes sourdough every Sunday",
    "studies marine biology at the university",
    "visits her grandmother every weekend",
    "collects vinyl records from the seventies",
    "started a job as a data analyst",
    "is saving money for a sailing boat",
    "teaches yoga in the park",
    "sings in a jazz choir",
    "lost his keys at the station",
    "prefers tea over coffee",
    "organises the neighbourhood book club",
    "paints watercolour landscapes",
    "is renovating a farmhouse",
    "rides a bike to work",
    "reads science fiction before bed",
    "plans a trip to Patagonia next spring",
    "fixed the roof after the storm",
    "manages the accounts of a bakery",
    "repairs vintage cameras",
    "volunteers as a firefighter",
    "keeps bees in the garden",
    "is writing a novel about sailors",
    "speaks four languages",
    "broke her wrist while skiing",
    "translates poems from Polish",
    "designs furniture from recycled wood",
)
YEARS = range(1990, 2026)
SPEAKER_SHARE = 0.10  # facts about the speaker, as a long conversation accumulates them
RELATION_SHARE = 0.05  # speaker --knows--> entity edges, per entity


@dataclass
class Prefill:
    """What to ``remember`` for one agent, and the base text behind each vector."""

    entities: list[StructuredEntity] = field(default_factory=list)
    facts: list[StructuredFact] = field(default_factory=list)
    relations: list[StructuredRelation] = field(default_factory=list)
    base_of: dict[str, str] = field(default_factory=dict)  # text → base text it varies


def _person(i: int) -> tuple[str, str]:
    first, rest = FIRST[i % len(FIRST)], i // len(FIRST)
    last, rest = LAST[rest % len(LAST)], rest // len(LAST)
    base = f"{first} {last}"
    if rest == 0:
        return base, base
    initial = chr(ord("A") + (rest - 1) % 26)
    extra = (rest - 1) // 26
    name = f"{first} {initial}. {last}" + (f"-{LAST[(extra - 1) % len(LAST)]}" if extra else "")
    return name, base


def _org(i: int) -> tuple[str, str]:
    last, rest = LAST[i % len(LAST)], i // len(LAST)
    suffix, rest = ORG_SUFFIX[rest % len(ORG_SUFFIX)], rest // len(ORG_SUFFIX)
    base = f"{last} {suffix}"
    return (
        base if rest == 0 else f"{base} {PLACE_ROOT[(rest - 1) % len(PLACE_ROOT)]} {rest}"
    ), base


def _place(i: int) -> tuple[str, str]:
    prefix, rest = PLACE_PREFIX[i % len(PLACE_PREFIX)], i // len(PLACE_PREFIX)
    root, rest = PLACE_ROOT[rest % len(PLACE_ROOT)], rest // len(PLACE_ROOT)
    base = f"{prefix} {root}"
    return (base if rest == 0 else f"{base} {rest}"), base


def build_prefill(n: int, speaker: str, seed: int = 7) -> Prefill:
    """``n`` entities (80 % people, 10 % organisations, 10 % places), ``n`` facts (a tenth
    about the speaker) and ``n / 20`` relations from the speaker."""
    rng = random.Random(seed)
    out = Prefill(entities=[StructuredEntity(speaker, "person")])
    names: list[str] = []
    for i in range(n):
        kind = "person" if i % 10 < 8 else ("organization" if i % 10 == 8 else "place")
        name, base = {"person": _person, "organization": _org, "place": _place}[kind](
            i if kind == "person" else i // 10
        )
        out.entities.append(StructuredEntity(name, kind))
        out.base_of[name] = base
        names.append(name)
    for i in range(n):
        about_speaker = rng.random() < SPEAKER_SHARE or not names
        subject = speaker if about_speaker else names[rng.randrange(len(names))]
        phrase = PHRASES[rng.randrange(len(PHRASES))]
        where = PLACE_ROOT[rng.randrange(len(PLACE_ROOT))]
        text = f"{subject} {phrase} ({where}, {YEARS[rng.randrange(len(YEARS))]}, #{i})"
        out.facts.append(StructuredFact(text, subject))
        out.base_of[text] = f"{'I' if about_speaker else 'She'} {phrase}"
    for i in range(int(n * RELATION_SHARE)):
        out.relations.append(StructuredRelation(speaker, names[(i * 7919) % n], "knows"))
    out.base_of[speaker] = speaker
    return out


class TableEmbedder:
    """Caller-supplied vectors: each text gets its base text's real vector plus seeded noise
    (cosine ≈ 0.94 to the base); texts without a base are embedded by the real model. Named
    like the real model, so the agent's recorded embedding space is the one writes use."""

    def __init__(self, inner: Embedder, base_of: dict[str, str], noise: float = 0.35) -> None:
        self.inner, self.name, self.dimensions = inner, inner.name, inner.dimensions
        self.base_of = base_of
        self.noise = noise
        self.bases: dict[str, list[float]] = {}

    async def prepare(self, batch: int = 256) -> None:
        """Embed every distinct base text once."""
        todo = sorted(set(self.base_of.values()) - set(self.bases))
        for start in range(0, len(todo), batch):
            chunk = todo[start : start + batch]
            for text, vec in zip(chunk, await self.inner.embed(chunk), strict=True):
                self.bases[text] = vec

    def _vary(self, text: str, base: list[float]) -> list[float]:
        if text == self.base_of.get(text):
            return base
        rng = random.Random(text)
        scale = self.noise / math.sqrt(len(base))
        vec = [b + rng.gauss(0.0, scale) for b in base]
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        return [v / norm for v in vec]

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        missing = [t for t in texts if self.base_of.get(t) not in self.bases]
        real = dict(zip(missing, await self.inner.embed(missing), strict=True)) if missing else {}
        return [real[t] if t in real else self._vary(t, self.bases[self.base_of[t]]) for t in texts]
