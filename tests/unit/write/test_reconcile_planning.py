"""Pure decisions: reconciliation thresholds, contradiction detector, LLM validation,
single-valued relations, evidence linkage, modes and the commit plan."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from graph.memory.write.commit.plan import block_reason, build_plan
from graph.memory.write.extract.extraction import ExtractedFact
from graph.memory.write.reconcile.decisions import (
    ExistingFact,
    ExistingRelation,
    FactDecision,
    contradicts,
    fast_decision,
    is_retraction,
    offline_decision,
    validate_llm_decision,
)
from graph.memory.write.reconcile.items import (
    FactItem,
    RelationItem,
    apply_single_valued,
    find_evidence,
    flag_contradictions,
    mentions,
)
from graph.memory.write.resolve.stage import EntityInfo

NOW = datetime(2025, 1, 1, tzinfo=UTC)


def test_fast_decision_thresholds() -> None:
    assert fast_decision([]).action == "ADD"
    assert fast_decision([ExistingFact("a", "x", 0.3)]).action == "ADD"
    d = fast_decision([ExistingFact("a", "x", 0.3), ExistingFact("b", "y", 0.99)])
    assert d is not None and (d.action, d.target_id) == ("NOOP", "b")
    assert fast_decision([ExistingFact("a", "x", 0.7)]) is None


def test_contradiction_detector() -> None:
    assert contradicts("Rafael no longer works at Acme", "Rafael works at Acme")
    assert contradicts("Rafael doesn't like jazz", "Rafael likes jazz")
    assert contradicts("Rafael dislikes jazz", "Rafael likes jazz")
    assert contradicts("Ana não mora em Curitiba", "Ana mora em Curitiba")
    assert not contradicts("Rafael lives in Lisbon", "Rafael lives in Curitiba")
    assert not contradicts("Rafael likes jazz", "Rafael likes jazz a lot")
    assert is_retraction("I no longer work there") and is_retraction("não moro mais lá")
    assert not is_retraction("I work there")


def test_offline_decision() -> None:
    old = [ExistingFact("f1", "Rafael works at Acme", 0.8)]
    assert offline_decision("Rafael no longer works at Acme", old) == FactDecision(
        "DELETE", "f1", "retracted: Rafael works at Acme", 0.8
    )
    d = offline_decision("Rafael doesn't work at Acme", old)
    assert d.action in ("DELETE", "ADD")
    d = offline_decision(
        "Rafael does not like Acme at all", [ExistingFact("f", "Rafael likes Acme", 0.7)]
    )
    assert d.action == "ADD" and d.review_needed
    assert offline_decision("Rafael works at Acme!", old).action == "NOOP"
    assert offline_decision("Rafael works at Acme as CTO", old).action == "ADD"


def test_validate_llm_decision() -> None:
    w: list[str] = []
    ids = ["f1", "f2"]
    assert (
        validate_llm_decision({"action": "UPDATE", "target_id": "f9", "reason": "x"}, ids, w)
        is None
    )
    assert (
        validate_llm_decision({"action": "DELETE", "target_id": "f1", "reason": " "}, ids, w)
        is None
    )
    assert (
        validate_llm_decision({"action": "MERGE", "target_id": "f1", "reason": "x"}, ids, w) is None
    )
    assert validate_llm_decision("junk", ids, w) is None
    assert len(w) == 3
    ok = validate_llm_decision({"action": "update", "target_id": "f2", "reason": "moved"}, ids, w)
    assert ok == FactDecision("UPDATE", "f2", "moved", by="llm")
    add = validate_llm_decision({"action": "ADD", "target_id": "zzz", "reason": "new"}, ids, w)
    assert add is not None and add.target_id is None


def _item(
    i: int,
    text: str,
    subject: str,
    mentioned: list[str],
    conf: float = 0.95,
    decision: FactDecision | None = None,
) -> FactItem:
    return FactItem(
        i,
        ExtractedFact(text, subject, conf),
        subject,
        text,
        text.lower(),
        f"h{i}",
        mentioned,
        [0.0],
        decision=decision,
        id=f"new{i}",
    )


def test_mentions_and_evidence() -> None:
    ents = [
        EntityInfo("person:clara", "Clara Rezende", "person", True),
        EntityInfo("org:vertix", "Vertix", "organization", True),
        EntityInfo("person:jo", "Jo", "person", True, ["Jo"]),
    ]
    assert mentions("Clara Rezende left Vertix, said Jo", ents) == ["person:clara", "org:vertix"]
    items = [
        _item(0, "a", "person:clara", ["org:vertix"], 0.8),
        _item(1, "b", "person:clara", ["org:vertix"], 0.95),
        _item(2, "c", "person:clara", []),
    ]
    assert find_evidence(RelationItem("person:clara", "org:vertix", "left", 0.8), items) == 1
    assert find_evidence(RelationItem("person:clara", "org:x", "left", 0.8), items) is None


def test_single_valued_supersession() -> None:
    items = [
        _item(
            0,
            "Rafael moved to SP",
            "person:r",
            ["place:sp"],
            decision=FactDecision("ADD", by="rule"),
        ),
        _item(
            1, "Rafael works at B", "person:r", ["org:b"], decision=FactDecision("ADD", by="llm")
        ),
    ]
    rels = [
        RelationItem("person:r", "place:sp", "lives_in", 0.8, 0),
        RelationItem("person:r", "org:b", "works_at", 0.8, 1),
        RelationItem("person:r", "person:x", "friend_of", 0.8, 0),
    ]
    active = [
        ExistingRelation("r1", "person:r", "place:cwb", "lives_in", "old1"),
        ExistingRelation("r2", "person:r", "org:a", "works_at", "old2"),
        ExistingRelation("r3", "person:r", "place:sp", "lives_in", "old3"),
    ]
    close = apply_single_valued(items, rels, active, ("lives_in", "works_at"))
    assert close == ["r1", "r2"]
    assert items[0].decision is not None and items[0].decision.action == "UPDATE"
    assert items[0].decision.target_id == "old1"
    assert items[1].decision is not None and items[1].decision.action == "ADD"  # LLM's choice


def test_flag_contradictions() -> None:
    item = _item(0, "Rafael doesn't like jazz", "p", [], decision=FactDecision("ADD"))
    item.candidates = [ExistingFact("f", "Rafael likes jazz", 0.7)]
    flag_contradictions(item)
    assert item.decision is not None and item.decision.review_needed


def test_block_reasons() -> None:
    assert block_reason("ADD", "full", False) is None
    assert block_reason("ADD", "controlled", False) is None
    assert block_reason("UPDATE", "controlled", False) == "controlled_mode"
    assert block_reason("DELETE", "controlled", False) == "controlled_mode"
    assert block_reason("NOOP", "shadow", False) == "shadow_mode"
    assert block_reason("ADD", "full", True) == "mutations_frozen"


def _plan(mode: str, frozen: bool = False):  # type: ignore[no-untyped-def]
    ents = {
        k: EntityInfo(k, k.split(":")[1], k.split(":")[0], False)
        for k in ("person:r", "place:sp", "place:cwb")
    }
    items = [
        _item(
            0,
            "Rafael moved to SP",
            "person:r",
            ["place:sp"],
            decision=FactDecision("UPDATE", "old1", "moved"),
        ),
        _item(1, "Rafael likes tea", "person:r", [], decision=FactDecision("ADD", None, "n")),
        _item(2, "Rafael is tall", "person:r", [], decision=FactDecision("NOOP", "old2", "k")),
        _item(3, "Rafael quit chess", "person:r", [], decision=FactDecision("DELETE", "old3", "r")),
    ]
    rels = [RelationItem("person:r", "place:sp", "lives_in", 0.8, 0)]
    return build_plan(
        items=items,
        relations=rels,
        entities=ents,
        close_relations=["rel1"],
        mode=mode,
        frozen=frozen,
        event_id="ev",
        speaker="Rafael",
        now=NOW,
        occurred=NOW,
        causal=[(0, 1, 0.5)],
        relation_strength=0.8,
    )


def test_build_plan_full() -> None:
    out = _plan("full")
    p = out.plan
    assert [r["id"] for r in p.new_facts] == ["new0", "new1"]
    assert sorted(p.close_fact_ids) == ["old1", "old3"]
    assert p.supersedes == [{"new_id": "new0", "old_id": "old1"}]
    assert p.reinforce == [{"id": "old2", "count": 1}]
    assert [r["evidence_fact_id"] for r in p.relations] == ["new0"]
    assert p.close_relation_ids == ["rel1"]
    assert p.causes == [{"cause_id": "new0", "effect_id": "new1", "strength": 0.5}]
    assert len(p.audits) == 4 and all(a["applied"] for a in p.audits)
    assert {e["key"] for e in p.entities} == {"person:r", "place:sp"}
    assert (len(out.added), len(out.updated), len(out.unchanged), len(out.deleted)) == (1, 1, 1, 1)


def test_build_plan_controlled_and_shadow() -> None:
    out = _plan("controlled")
    assert [r["id"] for r in out.plan.new_facts] == ["new1"]
    assert out.plan.close_fact_ids == [] and out.plan.relations == []
    assert out.plan.close_relation_ids == []
    assert sorted(a["blocked_reason"] or "" for a in out.plan.audits) == [
        "",
        "",
        "controlled_mode",
        "controlled_mode",
    ]
    shadow = _plan("shadow")
    assert shadow.plan.new_facts == [] and shadow.plan.entities == []
    assert all(not a["applied"] for a in shadow.plan.audits)
    frozen = _plan("full", frozen=True)
    assert frozen.blocked == 4 and frozen.plan.entities == []


def test_hybrid_rank_prefers_lexical_overlap_on_ties() -> None:
    from graph.memory.write.reconcile.decisions import hybrid_rank

    cands = [
        ExistingFact("a", "Rafael enjoys long walks", 0.70),
        ExistingFact("b", "Rafael works at Acme Corp", 0.68),
        ExistingFact("c", "Unrelated", 0.10),
    ]
    ranked = hybrid_rank("Rafael works at Acme", cands, k=2)
    assert [c.id for c in ranked] == ["b", "a"]


def test_known_context_budget() -> None:
    from graph.memory.write.extract.extraction import known_context as _known_context

    aliases = [
        {
            "key": "person:c",
            "name": "Clara",
            "type": "person",
            "profile_text": "Engineer at Orion.",
        },
        {"key": "org:v", "name": "Vertix", "type": "organization", "profile_text": None},
        {"key": "org:v", "name": "Vertix", "type": "organization", "profile_text": None},
    ]
    facts = [
        {
            "key": "org:v",
            "id": f"fact-{i}",
            "text": "Vertix is a SaaS startup in Curitiba",
            "similarity": i / 100,
        }
        for i in range(50)
    ]
    known = _known_context(aliases, facts, budget=40)
    assert known.entities == [
        {"name": "Clara", "type": "person"},
        {"name": "Vertix", "type": "organization"},
    ]
    assert known.profiles == ["[Clara] Engineer at Orion."]
    # Nearest first, short ids mapped back to the fact ids, within the budget.
    assert known.facts[0] == {
        "id": "F1",
        "about": "Vertix",
        "text": "Vertix is a SaaS startup in Curitiba",
    }
    assert known.ids["F1"] == "fact-49" and known.ids["F2"] == "fact-48"
    assert 1 <= len(known.facts) < 10
    assert set(known.payload()) == {"known_entities", "known_profiles", "known_facts"}


def test_informed_answer_actions_are_parsed_and_validated() -> None:
    from graph.memory.write.extract.extraction import harden
    from graph.memory.write.reconcile.items import FactItem
    from graph.memory.write.reconcile.stage import informed_decision

    ex = harden(
        {
            "facts": [
                {
                    "subject": "Ana",
                    "text": "Ana lives in São Paulo",
                    "action": "update",
                    "target_id": "F1",
                    "reason": "moved",
                },
                {
                    "subject": "Ana",
                    "text": "Ana works at Acme",
                    "action": "NOOP",
                    "target_id": 2,
                    "reason": "known",
                },
                {"subject": "Ana", "text": "Ana adopted a cat", "action": "NEW"},
                {
                    "subject": "Ana",
                    "text": "Ana quit the choir",
                    "action": "DELETE",
                    "target_id": "F7",
                    "reason": "retracted",
                },
                {
                    "subject": "Ana",
                    "text": "Ana likes jazz a lot",
                    "action": "DELETE",
                    "target_id": "F1",
                    "reason": "",
                },
            ]
        }
    )
    assert ex is not None
    assert [(f.action, f.target_id) for f in ex.facts] == [
        ("UPDATE", "F1"),
        ("NONE", "F2"),
        ("ADD", None),
        ("DELETE", "F7"),
        ("DELETE", "F1"),
    ]
    known = {"F1": "fact-curitiba", "F2": "fact-acme"}
    warnings: list[str] = []
    got = []
    for i, fact in enumerate(ex.facts):
        item = FactItem(
            index=i,
            fact=fact,
            subject_key="person:ana",
            text=fact.text,
            normalized=fact.text.lower(),
            content_hash=str(i),
            mentioned=[],
        )
        d = informed_decision(item, known, warnings)
        got.append(None if d is None else (d.action, d.target_id, d.by))
    assert got == [
        ("UPDATE", "fact-curitiba", "llm"),
        ("NOOP", "fact-acme", "llm"),
        None,
        None,
        None,
    ]  # F7 was never shown; an empty reason is dropped
    assert any("not a candidate" in w for w in warnings)
    assert any("without a reason" in w for w in warnings)


def test_build_plan_drops_items_whose_keys_it_was_not_given(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A fact or relation naming an entity the plan was not given is dropped with a warning;
    the rest of the message is planned (an odd sentence never fails the whole write). The
    warnings go back to the caller; the log says how many, never the entity keys (an erased
    subject's key must not survive in log files)."""
    caplog.set_level(logging.DEBUG)
    ents = {"place:sp": EntityInfo("place:sp", "SP", "place", False)}
    items = [
        _item(
            0,
            "Narrator saw SP",
            "person:narrator",
            ["place:sp"],
            decision=FactDecision("ADD", None, "n"),
        ),
        _item(
            1, "SP is big", "place:sp", ["person:ghost"], decision=FactDecision("ADD", None, "n")
        ),
    ]
    rels = [
        RelationItem("person:narrator", "place:sp", "visited", 0.8, 0),
        RelationItem("place:sp", "place:nowhere", "near", 0.8, 1),
    ]
    out = build_plan(
        items=items,
        relations=rels,
        entities=ents,
        close_relations=[],
        mode="full",
        frozen=False,
        event_id="ev",
        speaker="Narrator",
        now=NOW,
        occurred=NOW,
        causal=[(0, 1, 0.5)],
        relation_strength=0.8,
    )
    assert [r["props"]["text"] for r in out.plan.new_facts] == ["SP is big"]
    assert {a["key"] for a in out.plan.about} == {"place:sp"}
    assert out.plan.relations == [] and out.plan.causes == []
    assert {e["key"] for e in out.plan.entities} == {"place:sp"}
    assert len(out.warnings) == 3
    assert any("person:narrator" in w for w in out.warnings)
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "dropped" in logged
    assert not any(k in logged for k in ("person:narrator", "person:ghost", "place:nowhere"))
