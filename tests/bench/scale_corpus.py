"""Synthetic memory for the scale benchmark (``tests.bench.scale``): deterministic per agent,
with entities, relations, sentences a full-text index can work with (names, places, topics) and
caller-supplied clustered vectors.

Every fact is about one of ``TOPICS``; its vector is the topic's centroid plus noise, so the
cosine between two facts of a topic is ~0.5 and across topics ~0 (what a sentence model gives
for related and unrelated sentences). ``ScaleEmbedder`` embeds a query the same way from the
first topic word it contains, so a question about "hiking" lands among the hiking facts.
Agents are generated in chunks so a 100k-fact agent never sits in memory as Python lists.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from graph.memory.write import StructuredEntity, StructuredFact, StructuredRelation

DIM = 384
_TOPICS_TEXT = (
    "coffee hiking budget launch roadmap guitar marathon python recipe garden invoice "
    "vacation contract hiring design migration football painting chess dentist apartment "
    "wedding course kafka database salary mentor podcast cycling sailing pottery taxes "
    "insurance mortgage vaccine yoga camera piano surfing novel"
)
TOPICS = _TOPICS_TEXT.split()
# A few words that go with each topic, so sentences vary beyond the topic word itself.
TOPIC_WORDS = {
    t: [f"{t} {w}" for w in ("plan", "costs", "class", "trip", "notes", "deadline", "group")]
    for t in TOPICS
}
_FIRST_TEXT = (
    "Ana Bruno Carla Diego Elisa Fabio Gabriela Hugo Irene Joao Karen Lucas Marta Nuno Olga "
    "Pedro Quentin Rita Sofia Tiago Ursula Vasco Wanda Xavier Yara Zeca Alice Bernardo "
    "Clara Duarte"
)
FIRST = _FIRST_TEXT.split()
_LAST_TEXT = (
    "Souza Lima Dias Alves Rocha Reis Costa Pereira Santos Ferreira Gomes Martins Ribeiro "
    "Carvalho Teixeira Moreira Correia Mendes Nunes Soares Vieira Monteiro Cardoso "
    "Rodrigues Barbosa Pinto Castro Araujo Freitas Lopes"
)
LAST = _LAST_TEXT.split()
_CITIES_TEXT = (
    "Curitiba Lisbon Porto Recife Santos Natal Belem Manaus Braga Coimbra Faro Sintra "
    "Aveiro Fortaleza Salvador Florianopolis Campinas Goiania Vitoria Maceio Madrid Seville "
    "Valencia Bilbao Toulouse Lyon Nantes Turin Milan Bologna Munich Hamburg Cologne Dublin "
    "Galway Leeds Bristol Oslo Bergen Tallinn"
)
CITIES = _CITIES_TEXT.split()
_ORG_A_TEXT = "Acme Orion Vertix Globex Initech Umbrella Nimbus Quanta Helix Boreal Lumen Atlas"
ORG_A = _ORG_A_TEXT.split()
_ORG_B_TEXT = "Tech Labs Logistics Health Foods Bank Studio Energy Media Robotics"
ORG_B = _ORG_B_TEXT.split()
MONTHS = "January February March April May June July August September October November December"
MONTH = MONTHS.split()
TEMPLATES = (
    "{p} met {o} in {c} to talk about the {w1} and the {w2}.",
    "{p} said the {w1} at {org} slips to {m}.",
    "{p} moved to {c} in {m} and signed up for a {w1}.",
    "{p} recommended a {w1} in {c} to {o}.",
    "{p} is worried about the {w1} at {org}.",
    "{p} and {o} disagreed about the {w1} during the {w2} review.",
    "{p} booked the {w1} in {c} for {m}.",
    "{p} asked {o} for help with the {w1}.",
)


def _seed(*parts: object) -> int:
    return int(hashlib.sha1(repr(parts).encode()).hexdigest()[:12], 16)


class Centroids:
    """One unit vector per topic (fixed seed) and the noise that turns it into a sentence's."""

    def __init__(self) -> None:
        rng = np.random.default_rng(11)
        raw = rng.normal(size=(len(TOPICS), DIM))
        self.topics = raw / np.linalg.norm(raw, axis=1, keepdims=True)

    def vectors(self, topics: Sequence[int], seed: int) -> list[list[float]]:
        """Unit vectors near the given topics' centroids (cosine ~0.5 within a topic)."""
        rng = np.random.default_rng(seed)
        noise = rng.normal(size=(len(topics), DIM)) * (1.8 / np.sqrt(DIM))
        v = self.topics[np.asarray(topics, dtype=int)] + noise
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist()  # type: ignore[no-any-return]


CENTROIDS = Centroids()


class ScaleEmbedder:
    """Embeds queries and offline-written messages into the corpus's topic space."""

    name, dimensions = "bench-scale-topics", DIM

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for text in texts:
            words = text.lower().replace(",", " ").replace(".", " ").replace("?", " ").split()
            topic = next((TOPICS.index(w) for w in words if w in TOPICS), _seed(text) % len(TOPICS))
            out.extend(CENTROIDS.vectors([topic % len(TOPICS)], _seed("q", text)))
        return out


@dataclass(frozen=True)
class Cast:
    """The named things of one agent's memory."""

    people: list[str]
    orgs: list[str]
    places: list[str]


def cast_for(agent: str, n_facts: int) -> Cast:
    """Deterministic names for an agent: about one person per 25 facts (20 to 5,000)."""
    rng = random.Random(_seed("cast", agent))
    n_people = max(20, min(5_000, n_facts // 25))
    people: dict[str, None] = {}
    while len(people) < n_people:
        initial = chr(65 + rng.randrange(26))
        people[f"{rng.choice(FIRST)} {initial}. {rng.choice(LAST)}"] = None
    n_orgs = max(5, min(120, n_facts // 200))
    orgs = [f"{a} {b}" for a in ORG_A for b in ORG_B]
    rng.shuffle(orgs)
    places = list(CITIES)
    rng.shuffle(places)
    return Cast(list(people), orgs[:n_orgs], places[: max(10, min(len(places), n_facts // 50))])


def entities_and_relations(
    agent: str, cast: Cast, vectors: bool = True
) -> tuple[list[StructuredEntity], list[StructuredRelation]]:
    """Declared entities (with name vectors) and their relations: every person works at an
    organisation, lives in a place and knows one or two others."""
    rng = random.Random(_seed("rel", agent))
    typed = (
        [(p, "person") for p in cast.people]
        + [(o, "organization") for o in cast.orgs]
        + [(c, "place") for c in cast.places]
    )
    vecs = (
        CENTROIDS.vectors([_seed(n) % len(TOPICS) for n, _ in typed], _seed("ents", agent))
        if vectors
        else [None] * len(typed)
    )
    entities = [StructuredEntity(n, t, embedding=v) for (n, t), v in zip(typed, vecs, strict=True)]
    relations: list[StructuredRelation] = []
    for p in cast.people:
        relations.append(StructuredRelation(p, rng.choice(cast.orgs), "works_at"))
        relations.append(StructuredRelation(p, rng.choice(cast.places), "lives_in"))
        for other in rng.sample(cast.people, 2)[: rng.randint(1, 2)]:
            if other != p:
                relations.append(StructuredRelation(p, other, "knows"))
    return entities, relations


def fact_chunks(
    agent: str, cast: Cast, n_facts: int, chunk: int, vectors: bool = True
) -> Iterator[list[StructuredFact]]:
    """The agent's facts, ``chunk`` at a time, each with a clustered vector and a stable id
    (re-importing the same agent changes nothing)."""
    for start in range(0, n_facts, chunk):
        rng = random.Random(_seed("facts", agent, start))
        rows = []
        for i in range(start, min(n_facts, start + chunk)):
            topic = rng.randrange(len(TOPICS))
            second = rng.randrange(len(TOPICS))
            subject = rng.choice(cast.people)
            other = rng.choice(cast.people)
            place, org = rng.choice(cast.places), rng.choice(cast.orgs)
            text = rng.choice(TEMPLATES).format(
                p=subject,
                o=other,
                c=place,
                org=org,
                m=rng.choice(MONTH),
                w1=rng.choice(TOPIC_WORDS[TOPICS[topic]]),
                w2=rng.choice(TOPIC_WORDS[TOPICS[second]]),
            )
            mentioned = [x for x in (other, place, org) if x in text and x != subject]
            rows.append((topic, text[:-1] + f" (note {i}).", subject, mentioned, i))
        vecs = (
            CENTROIDS.vectors([r[0] for r in rows], _seed("fv", agent, start))
            if vectors
            else [None] * len(rows)
        )
        yield [
            StructuredFact(
                text,
                subject,
                entities=mentioned,
                id=f"{agent}-f{i}",
                confidence=rng.choice((0.6, 0.8, 0.95)),
                importance=round(rng.random(), 3),
                embedding=v,
            )
            for (_, text, subject, mentioned, i), v in zip(rows, vecs, strict=True)
        ]


def queries(agent: str, cast: Cast, n: int, salt: str = "") -> list[str]:
    """Questions an agent's user might ask: about a person, a topic, a place, in English and
    Portuguese."""
    rng = random.Random(_seed("queries", agent, salt))
    out = []
    for i in range(n):
        p, t, c = rng.choice(cast.people), rng.choice(TOPICS), rng.choice(cast.places)
        out.append(
            (
                f"What did {p} say about the {t}?",
                f"who talked about {t} in {c}",
                f"O que o {p} falou sobre {t}?",
                f"tell me everything about {p}",
                f"any news on the {t} plan?",
            )[i % 5]
        )
    return out


def messages(agent: str, n: int) -> list[str]:
    """First-person messages for the offline write path (what a user tells the assistant)."""
    rng = random.Random(_seed("messages", agent))
    out = []
    for i in range(n):
        t, c = rng.choice(TOPICS), rng.choice(CITIES)
        who = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        out.append(
            (
                f"I moved to {c} last {rng.choice(MONTH)} and I started {t} classes.",
                f"My friend {who} works at {rng.choice(ORG_A)} {rng.choice(ORG_B)} now.",
                f"I am worried about the {t} costs this year.",
                f"{who} and I are planning a {t} trip to {c} in {rng.choice(MONTH)}.",
            )[i % 4]
        )
    return out
