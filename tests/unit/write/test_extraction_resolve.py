"""Pure decisions: output hardening, normalisation, semantic dedup, entity resolution."""

from __future__ import annotations

from graph.memory.write.extract.extraction import (
    ExtractedEntity,
    ExtractedFact,
    ExtractedRelation,
    Extraction,
    harden,
    normalize_extraction,
    semantic_dedup,
)
from graph.memory.write.extract.mentions import collect_mentions, strip_hint
from graph.memory.write.resolve.decisions import Candidate, resolve_entity, speaker_key
from graph.memory.write.resolve.stage import Resolved


def test_harden_caps_drops_truncates_coerces() -> None:
    warnings: list[str] = []
    data = {
        "entities": [{"name": f"E{i}", "type": "Person"} for i in range(60)] + ["bare"],
        "facts": [
            {"subject": "E1", "text": "short"},
            {
                "subject": "E1",
                "text": "E1 is a long fact " + "y" * 3000,
                "kind": "odd",
                "confidence": 0.77,
                "importance_category": "biographical_milestone",
            },
        ]
        + [{"subject": "E1", "text": f"E1 fact number {i}"} for i in range(30)],
        "relations": [
            {"source": "E1", "target": "E2", "type": "Works At"},
            {"source": "E1", "target": "E2", "type": "`"},
            "junk",
        ],
        "profiles": {"E1": "A person."},
        "emotion": {"label": "Joy", "intensity": 2, "energy": "x"},
    }
    ex = harden(data, warnings=warnings)
    assert ex is not None
    assert len(ex.entities) == 50 and ex.entities[0].type == "person"
    assert len(ex.facts) == 19  # 20 kept, the 5-char one dropped
    big = ex.facts[0]
    assert len(big.text) == 2000 and big.kind == "fact" and big.confidence == 0.80
    assert big.importance == 0.9
    assert [r.type for r in ex.relations] == ["works_at"]
    assert ex.emotion == {"emotion": "joy", "intensity": 1.0, "energy": 0.0}
    joined = " ".join(warnings)
    for needle in (
        "entities; kept 50",
        "facts; kept 20",
        "shorter than",
        "truncated",
        "coerced",
        "not usable",
    ):
        assert needle in joined
    assert harden("not a dict") is None and harden(None) is None


def test_normalize_extraction_groups_aliases_and_dedups() -> None:
    ex = Extraction(
        entities=[
            ExtractedEntity("Guilherme Maturana", "person", ["Guili"]),
            ExtractedEntity("Guilherme Maturana", "person", ["Gui"]),
        ],
        facts=[
            ExtractedFact("Guili is a designer", "Guili"),
            ExtractedFact("Guili is a designer!", "Guilherme Maturana"),
            ExtractedFact("Likes tea a lot", ""),
        ],
        relations=[
            ExtractedRelation("Guili", "Guilherme Maturana", "same_as"),
            ExtractedRelation("Guili", "Acme", "works_at"),
            ExtractedRelation("Guilherme Maturana", "Acme", "works_at"),
        ],
    )
    out = normalize_extraction(ex, "Rafael")
    assert [e.aliases for e in out.entities] == [["Guili", "Gui"]]
    assert [(f.subject, f.text) for f in out.facts] == [
        ("Guilherme Maturana", "Guili is a designer"),
        ("Rafael", "Likes tea a lot"),
    ]
    assert [(r.source, r.type) for r in out.relations] == [("Guilherme Maturana", "works_at")]


def test_semantic_dedup_keeps_first() -> None:
    vecs = [[1.0, 0.0], [0.99, 0.05], [0.0, 1.0]]
    assert semantic_dedup(vecs, 0.85) == [0, 2]
    assert semantic_dedup([], 0.85) == []


def test_strip_hint() -> None:
    assert strip_hint("Carol (Rafael's girlfriend)") == ("Carol", True)
    assert strip_hint("Carol (the designer)") == ("Carol", False)
    assert strip_hint("Carol") == ("Carol", False)


def _resolve(name: str, etype: str = "person", **kw: object) -> object:
    args: dict = {"alias_matches": {}, "existing": {}, "candidates": []}
    args.update(kw)
    return resolve_entity(
        name, etype, "Rafael", args["alias_matches"], args["existing"], args["candidates"]
    )


def test_resolution_phases() -> None:
    for pronoun in ("I", "me", "eu", "myself", "Rafael"):
        r = _resolve(pronoun)
        assert r.key == speaker_key("Rafael") == "person:rafael" and r.method == "speaker"
    r = _resolve("Mom")
    assert (r.key, r.name, r.method) == ("person:rafael_s_mom", "Rafael's mom", "relationship_term")
    r = _resolve("Guili", alias_matches={"guili": "person:guilherme_maturana"})
    assert (r.key, r.method) == ("person:guilherme_maturana", "alias")
    r = _resolve("Ana", existing={"person:ana": ("Ana", "person")})
    assert (r.key, r.method) == ("person:ana", "slug")
    carolina = Candidate("person:carolina_dias", "Carolina Dias", "person", 0.3)
    r = _resolve("Carol", candidates=[carolina])
    assert (r.key, r.method) == ("person:carolina_dias", "prefix")
    assert _resolve("Ca", candidates=[carolina]).method == "new"  # < 3 chars: no prefix
    r = _resolve("Bia", candidates=[Candidate("person:beatriz", "Beatriz", "person", 0.9)])
    assert (r.key, r.method) == ("person:beatriz", "fuzzy")
    r = _resolve("Bea", candidates=[Candidate("person:beatriz", "Beatriz", "person", 0.7)])
    assert r.method == "prefix" or r.method == "ambiguous"
    r = _resolve("Zed", candidates=[Candidate("person:ana", "Ana", "person", 0.7)])
    assert r.method == "ambiguous" and r.ambiguous[0].key == "person:ana"
    r = _resolve("Zed", candidates=[Candidate("person:ana", "Ana", "person", 0.3)])
    assert (r.method, r.key, r.is_new) == ("new", "person:zed", True)
    # A different specific type never fuzzy-matches.
    r = _resolve("Paris", "place", candidates=[Candidate("person:paris", "Paris", "person", 0.99)])
    assert r.method == "new" and r.key == "place:paris"


def test_resolution_without_embeddings_uses_difflib() -> None:
    r = resolve_entity(
        "Acme Corp",
        "organization",
        "Rafael",
        {},
        {},
        [Candidate("organization:acme_corporation", "Acme Corporation", "organization", 0.0)],
        embeddings_available=False,
    )
    assert r.method in ("fuzzy", "ambiguous")


def test_a_name_with_a_hint_keys_to_the_entity_its_mention_resolved_to() -> None:
    """The model may name a subject or relation end with a hint ("Carol (Rafael's girlfriend)")
    while listing the entity without it: the mention is resolved hint-free, and the fact is
    about Carol, not about the speaker it would fall back to."""
    ex = Extraction(
        entities=[ExtractedEntity("Carol", "person")],
        facts=[ExtractedFact("Carol likes jazz.", "Carol (Rafael's girlfriend)", 0.9)],
        relations=[ExtractedRelation("Carol (Rafael's girlfriend)", "Jazz", "likes")],
    )
    assert [m.surface for m in collect_mentions(ex)] == ["Carol", "Jazz"]
    resolved = Resolved(
        {}, {"carol": "person:carol", "jazz": "thing:jazz", "rafael": "person:rafael"}, []
    )
    assert resolved.key_of("Carol (Rafael's girlfriend)", "Rafael") == "person:carol"
    assert resolved.key_of("carol", "Rafael") == "person:carol"
    assert resolved.key_of("???", "Rafael") == "person:rafael"  # resolved to nothing
