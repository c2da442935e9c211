"""Pure maintenance decisions: clustering, "used to X, now Y", duplicate scoring, importance,
offline profiles."""

from __future__ import annotations

from datetime import UTC, datetime

from graph.memory.jobs.jobs_config import MaintenanceConfig
from graph.memory.maintenance.clusters import FactPoint, cluster_facts, observation_id, used_to_now
from graph.memory.maintenance.duplicates import (
    EntityPoint,
    find_duplicates,
    name_similarity,
    norm_name,
)
from graph.memory.maintenance.importance import rescore
from graph.memory.maintenance.profiles import offline_profile


def fp(i: str, vec: list[float], subject: str | None = None, imp: float = 0.5) -> FactPoint:
    return FactPoint(i, f"fact {i}", subject, subject, vec, imp)


def test_clusters_join_similar_facts_and_same_subject_facts_only() -> None:
    facts = [
        fp("a", [1.0, 0.0, 0, 0, 0]),
        fp("b", [0.95, 0.1, 0, 0, 0]),  # similar
        fp("c", [0.6, 0.8, 0, 0, 0], "s"),
        fp("d", [0.0, 1.0, 0, 0, 0], "s"),  # same subject
        fp("e", [0, 0, 0, 1.0, 0]),  # alone
        fp("f", [0, 0, 1.0, 0, 0], "t"),
        fp("g", [0, 0, 0.6, 0, 0.8], "t"),  # cos 0.6
    ]
    groups = [sorted(f.id for f in g) for g in cluster_facts(facts, threshold=0.9)]
    assert sorted(groups) == [["a", "b"], ["c", "d"], ["f", "g"]]
    assert cluster_facts(facts[:1]) == []
    # the same subject alone is not enough: unrelated facts about one entity stay apart
    assert cluster_facts([fp("h", [1.0, 0.0], "u"), fp("i", [0.0, 1.0], "u")]) == []
    big = [fp(str(i), [1.0, 0.01 * i, 0, 0, 0], imp=i / 20) for i in range(20)]
    (only,) = cluster_facts(big, max_size=5)
    assert [f.id for f in only] == ["19", "18", "17", "16", "15"]  # most important kept


def test_observation_ids_are_stable_and_order_free() -> None:
    assert observation_id("a", "k", ["x", "y"]) == observation_id("a", "k", ["y", "x"])
    assert observation_id("a", "k", ["x", "y"]) != observation_id("b", "k", ["x", "y"])


def test_used_to_now_wording() -> None:
    assert used_to_now("Clara", "Clara lives in Lisbon.", "Clara lives in Porto.") == (
        "Clara used to live in Lisbon, now lives in Porto."
    )
    assert used_to_now("Alex", "Alex loves pizza", "Alex hates pizza") == (
        "Alex used to love pizza, now hates pizza."
    )
    assert used_to_now("Ana", "Ana is a nurse", "Ana is a doctor") == (
        "Ana used to be a nurse, now is a doctor."
    )
    assert used_to_now("Ana", "Ana watches football", "Ana studies law").startswith(
        "Ana used to watch football"
    )
    assert used_to_now("Bob", "The office is in Lisbon", "The office is in Porto") == (
        "Used to: The office is in Lisbon; now: The office is in Porto."
    )


def test_name_similarity_and_norm() -> None:
    assert norm_name("  Clára  REZENDE! ") == "clara rezende"
    assert name_similarity("clara rezende", "clara rezende") == (1.0, "same name")
    assert name_similarity("clara", "clara rezende")[0] == 0.9
    assert name_similarity("clara rezende", "clara resende")[0] > 0.9
    assert name_similarity("clara", "rafael")[0] < 0.5


def test_find_duplicates_scores_blocks_and_respects_types() -> None:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    ents = [
        EntityPoint(
            "person:clara_rezende",
            "Clara Rezende",
            "person",
            [1.0, 0.0],
            3,
            ("Clara",),
            t0,
            facts=5,
        ),
        EntityPoint("person:clara_resende", "Clara Resende", "person", [0.98, 0.2], 1, (), t0),
        EntityPoint("city:porto", "Porto", "city", [0.0, 1.0]),
        EntityPoint("organization:porto", "Porto", "organization", [0.0, 1.0]),
        EntityPoint("thing:porto", "porto", "thing", [0.0, 1.0]),
        EntityPoint("person:rafael", "Rafael", "person", [0.5, 0.5]),
    ]
    pairs = find_duplicates("a1", ents, threshold=0.8)
    keyed = {frozenset((p.keep_key, p.drop_key)): p for p in pairs}
    clara = keyed[frozenset(("person:clara_rezende", "person:clara_resende"))]
    assert clara.keep_key == "person:clara_rezende" and clara.confidence >= 0.9
    assert "embedding cosine" in clara.reason
    assert frozenset(("city:porto", "organization:porto")) not in keyed  # different types
    assert frozenset(("city:porto", "thing:porto")) in keyed  # generic type is compatible
    assert not any("person:rafael" in k for k in keyed)
    assert pairs == sorted(pairs, key=lambda p: (-p.confidence, p.id))


def test_rescore_rises_with_use_never_below_base_and_halves_when_stale() -> None:
    cfg = MaintenanceConfig()
    idle = rescore(0.5, 0, None, 1, config=cfg)
    assert idle == 0.5
    used = rescore(0.5, 10, 1.0, 1, config=cfg)
    more = rescore(0.5, 30, 0.0, 5, entity_score=1.0, config=cfg)
    assert idle < used < more <= 0.75 + 1e-9  # at most half the headroom is added
    assert rescore(0.5, 10, 100.0, 1) < rescore(0.5, 10, 1.0, 1)  # old use counts less
    assert rescore(0.5, 0, None, 1, stale=True) == 0.25
    assert 0.0 <= rescore(2.0, 10**6, -5.0, 10**6, entity_score=7.0) <= 1.0


def test_offline_profile_is_deterministic_and_bounded() -> None:
    facts = ["Clara lives in Porto.", "Clara works at Acme", "clara works at acme.", "x" * 500]
    text = offline_profile("Clara", "person", facts, 200)
    assert text == "Clara (person). Clara lives in Porto. Clara works at Acme."
    assert offline_profile("Clara", None, [], 100) == "Clara."
