"""The demo agent's story, written for Hippograph: Guilherme Maturana over a year of chats,
in English and Portuguese. Moves (Curitiba → São Paulo → Lisboa) and a job change (Vertix →
Orion Tech) arrive as conversation turns so the write pipeline versions them; the background
(family, colleagues, pets, preferences) is imported structurally; Helena's city is retracted;
"Guilherme Maturanna" is a planted misspelling for the merge-candidate review.

Fact and event ids here are local names; the loader turns them into UUIDs per agent (ids are
unique across the whole database), so the story can be loaded into any agent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from graph.memory.write import StructuredEntity, StructuredEvent, StructuredFact, StructuredRelation

__all__ = [
    "AGENT",
    "ENTITIES",
    "EVENTS",
    "FACTS",
    "RELATIONS",
    "RETRACTED_FACT_ID",
    "SEED_VERSION",
    "SESSIONS",
    "SPEAKER",
    "Turn",
]

AGENT = "demo"
SPEAKER = "Guilherme Maturana"
RETRACTED_FACT_ID = "helena-porto"
SEED_VERSION = 3


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@dataclass(frozen=True)
class Turn:
    """One message of a chat session, written through the pipeline (offline mode)."""

    key: str  # idempotency key: a re-run returns the stored result without writing
    at: datetime
    text: str
    thread: str


SESSIONS: list[Turn] = [
    Turn(
        "demo-s1-1",
        _at("2025-03-10T19:02:00"),
        "Hi! I'm Guilherme Maturana and I live in Curitiba.",
        "s1",
    ),
    Turn("demo-s1-2", _at("2025-03-10T19:04:00"), "I work at Vertix as a backend engineer.", "s1"),
    Turn(
        "demo-s2-1", _at("2025-06-02T08:30:00"), "Eu me mudei para São Paulo no fim de maio.", "s2"
    ),
    Turn(
        "demo-s3-1",
        _at("2025-09-15T21:10:00"),
        "I left Vertix and joined Orion Tech as data engineering lead.",
        "s3",
    ),
    Turn(
        "demo-s4-1",
        _at("2026-02-03T10:00:00"),
        "Eu me mudei para Lisboa em fevereiro por causa do escritório da Orion Tech.",
        "s4",
    ),
]

ENTITIES: list[StructuredEntity] = [
    StructuredEntity(
        "Guilherme Maturana",
        "person",
        ["Guili", "Gui Maturana"],
        importance=0.95,
        profile_text="Data engineering lead at Orion Tech, born in Curitiba, "
        "living in Lisboa since February 2026.",
    ),
    StructuredEntity("Guilherme Maturanna", "person", importance=0.2),  # planted misspelling
    StructuredEntity("Helena Maturana", "person", ["Lena"], importance=0.7),
    StructuredEntity("Clara Rezende", "person", ["Clarinha"], importance=0.6),
    StructuredEntity("Pipoca", "pet", importance=0.5),
    StructuredEntity("Vertix", "organization", importance=0.5),
    StructuredEntity("Orion Tech", "organization", ["Orion"], importance=0.8),
    StructuredEntity("Curitiba", "place", importance=0.4),
    StructuredEntity("São Paulo", "place", ["Sampa"], importance=0.4),
    StructuredEntity("Lisboa", "place", ["Lisbon"], importance=0.6),
    StructuredEntity("Porto", "place", importance=0.2),
    StructuredEntity("Braga", "place", importance=0.4),
]

FACTS: list[StructuredFact] = [
    StructuredFact(
        "Helena Maturana is Guilherme's older sister and a marine biologist",
        "Helena Maturana",
        ["Guilherme Maturana"],
        kind="relationship",
        importance=0.7,
        id="helena-sister",
        categories=["family"],
    ),
    StructuredFact(
        "Helena Maturana lives in Porto",
        "Helena Maturana",
        ["Porto"],
        importance=0.5,
        id=RETRACTED_FACT_ID,
        categories=["family", "places"],
        event_ids=["event-porto"],
    ),
    StructuredFact(
        "Helena Maturana mora em Braga, perto da universidade",
        "Helena Maturana",
        ["Braga"],
        importance=0.5,
        id="helena-braga",
        categories=["family", "places"],
        event_ids=["event-correction"],
    ),
    StructuredFact(
        "Guilherme has a beagle called Pipoca",
        "Guilherme Maturana",
        ["Pipoca"],
        importance=0.6,
        id="pipoca",
        categories=["pets"],
    ),
    StructuredFact(
        "Guilherme prefers to be called Guili by friends",
        "Guilherme Maturana",
        kind="preference",
        importance=0.6,
        id="nickname",
        categories=["identity"],
    ),
    StructuredFact(
        "Guilherme adora pão de queijo e café coado",
        "Guilherme Maturana",
        kind="preference",
        importance=0.4,
        id="pao-de-queijo",
        categories=["food"],
    ),
    StructuredFact(
        "Clara Rezende leads the platform team at Orion Tech",
        "Clara Rezende",
        ["Orion Tech"],
        importance=0.6,
        id="clara-platform",
        categories=["work"],
    ),
    StructuredFact(
        "Guilherme and Clara Rezende review the data platform roadmap every Monday",
        "Guilherme Maturana",
        ["Clara Rezende"],
        kind="habit",
        importance=0.5,
        id="roadmap-mondays",
        categories=["work"],
    ),
    StructuredFact(
        "Guilherme is learning to surf on weekends in Lisboa",
        "Guilherme Maturana",
        ["Lisboa"],
        kind="activity",
        importance=0.5,
        id="surf",
        categories=["hobbies"],
    ),
    StructuredFact(
        "Guilherme Maturanna gave a talk about graph databases at a Lisbon meetup",
        "Guilherme Maturanna",
        ["Lisboa"],
        kind="event",
        importance=0.4,
        id="maturanna-talk",
        categories=["work"],
    ),
    StructuredFact(
        "Orion Tech opened its European office in Lisboa",
        "Orion Tech",
        ["Lisboa"],
        importance=0.5,
        id="orion-lisboa",
        categories=["work", "places"],
    ),
]

RELATIONS: list[StructuredRelation] = [
    StructuredRelation("Helena Maturana", "Guilherme Maturana", "sibling_of", strength=0.9),
    StructuredRelation("Helena Maturana", "Porto", "lives_in", evidence_fact_id=RETRACTED_FACT_ID),
    StructuredRelation(
        "Helena Maturana",
        "Braga",
        "lives_in",
        evidence_fact_id="helena-braga",
    ),
    StructuredRelation("Guilherme Maturana", "Pipoca", "has_pet", strength=0.9),
    StructuredRelation("Clara Rezende", "Orion Tech", "works_at"),
    StructuredRelation("Guilherme Maturana", "Clara Rezende", "colleague_of"),
    StructuredRelation("Orion Tech", "Lisboa", "based_in"),
    StructuredRelation("Vertix", "Curitiba", "based_in"),
    StructuredRelation("Guilherme Maturanna", "Lisboa", "spoke_in", strength=0.4),
]

# Background chat kept as events (the audit trail), not extracted: Helena's two facts above name
# them as their source (FROM_EVENT), so the retracted one's turn reads as earlier.
EVENTS: list[StructuredEvent] = [
    StructuredEvent(
        "My sister Helena lives in Porto, I think.",
        SPEAKER,
        _at("2025-04-20T18:00:00"),
        id="event-porto",
        thread_id="s1b",
        source="seed",
    ),
    StructuredEvent(
        "Correção: a Helena mora em Braga, não no Porto.",
        SPEAKER,
        _at("2025-11-08T12:00:00"),
        id="event-correction",
        thread_id="s3b",
        source="seed",
    ),
]
