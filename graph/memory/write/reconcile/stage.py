"""Reconcile stage, orchestration: the fact candidates read, the decisions for a message's facts
(rules, thresholds, one batched model call), single-valued supersession and contradiction
flags."""

from __future__ import annotations

from graph.executor import Executor
from graph.memory.write.config import WriteConfig
from graph.memory.write.extract.extraction import Extraction
from graph.memory.write.llm import LLMSession
from graph.memory.write.reconcile.candidates import load_fact_candidates
from graph.memory.write.reconcile.decisions import (
    ExistingFact,
    ExistingRelation,
    FactDecision,
    NewRelation,
    fast_decision,
    hybrid_rank,
    is_retraction,
    offline_decision,
    second_values,
    validate_llm_decision,
)
from graph.memory.write.reconcile.items import (
    FactItem,
    RelationItem,
    apply_single_valued,
    flag_contradictions,
)
from graph.memory.write.reconcile.llm import reconcile_batch
from graph.memory.write.trace import WriteRun

__all__ = ["decide", "informed_decision", "reconcile_facts", "refuse_second_values"]


def informed_decision(
    item: FactItem, known_ids: dict[str, str], warnings: list[str]
) -> FactDecision | None:
    """The informed extraction's own action for a fact (prompt v2): UPDATE / DELETE / NONE on
    a known fact it was shown, validated like a reconcile answer (target among the shown facts,
    non-empty reason). None for ADD, or when the action was dropped: the thresholds decide."""
    action = item.fact.action
    if action not in ("UPDATE", "DELETE", "NONE"):
        return None
    target = known_ids.get(item.fact.target_id or "", item.fact.target_id)
    decision = validate_llm_decision(
        {
            "action": "NOOP" if action == "NONE" else action,
            "target_id": target,
            "reason": item.fact.reason,
        },
        known_ids.values(),
        warnings,
    )
    if decision is None:
        return None
    sim = next((c.similarity for c in item.candidates if c.id == decision.target_id), None)
    return FactDecision(decision.action, decision.target_id, decision.reason, sim, by="llm")


async def decide(
    live: list[FactItem],
    session: LLMSession | None,
    cfg: WriteConfig,
    warnings: list[str],
    known_ids: dict[str, str] | None = None,
) -> None:
    """The reconcile stage for every live fact.

    With an informed answer (``known_ids`` not None, prompt v2) the model's own action on a
    shown fact wins; otherwise the thresholds apply, and in the ambiguous band the model's ADD
    stands when every candidate in the band was among the facts it saw. A band candidate it
    did not see goes to the offline rules (or, with ``cfg.llm_calls_for_unseen``, to the
    reconcile call). Without an informed answer (blind fallback extraction) the ambiguous band
    gets one batched reconcile call (validated; failures ADD); without an LLM, the rules.
    """
    ambiguous: list[FactItem] = []
    shown = set((known_ids or {}).values())
    for item in live:
        decision = _rule_decision(item, session, cfg, known_ids, shown)
        if decision is None:
            ambiguous.append(item)
        else:
            item.decision = decision
    if session is not None:
        warnings += session.warnings
        session.warnings = []
    if not ambiguous or session is None:
        return
    await _ask_model(ambiguous, session, cfg, warnings)


def _rule_decision(
    item: FactItem,
    session: LLMSession | None,
    cfg: WriteConfig,
    known_ids: dict[str, str] | None,
    shown: set[str],
) -> FactDecision | None:
    """One fact's decision without a reconcile call: the informed answer's own action, the
    thresholds, or the offline rules. None: the fact goes to the batched reconcile call."""
    if known_ids is not None and session is not None:
        own = informed_decision(item, known_ids, session.warnings)
        if own is not None:
            return own
    fast = fast_decision(
        item.candidates, add_below=cfg.reconcile_add_below, noop_at=cfg.reconcile_noop_at
    )
    retracting = item.fact.retraction or is_retraction(item.text)
    if (
        session is None
        and retracting
        and item.candidates
        and (fast is None or fast.action != "NOOP")
    ):
        return offline_decision(item.text, item.candidates, noop_at=cfg.reconcile_noop_at)
    if fast is not None and not (
        # The extractor said this changes known facts: let the LLM judge even a
        # low-similarity candidate ("moved to Rio" vs "lives in São Paulo").
        session is not None
        and known_ids is None
        and item.fact.action == "UPDATE"
        and fast.action == "ADD"
        and item.candidates
    ):
        return fast
    if session is None:
        return offline_decision(item.text, item.candidates, noop_at=cfg.reconcile_noop_at)
    if known_ids is not None:
        band = [c for c in item.candidates if c.similarity >= cfg.reconcile_add_below]
        if all(c.id in shown for c in band):
            return FactDecision(
                "ADD",
                reason="informed extraction: new information beside the shown facts",
                similarity=band[0].similarity if band else None,
                by="llm",
            )
        if not cfg.llm_calls_for_unseen:
            return offline_decision(item.text, item.candidates, noop_at=cfg.reconcile_noop_at)
    return None


async def _ask_model(
    ambiguous: list[FactItem], session: LLMSession, cfg: WriteConfig, warnings: list[str]
) -> None:
    """One batched reconcile call for the ambiguous facts; an invalid or missing answer ADDs."""
    payload = [
        {
            "index": i.index,
            "new_fact": i.text,
            "existing": [
                {"id": c.id, "text": c.text, "similarity": round(c.similarity, 3)}
                for c in i.candidates
            ],
        }
        for i in ambiguous
    ]
    answers = await reconcile_batch(session, payload, cfg.reconcile_timeout_s)
    if answers is None:
        warnings.append("reconcile: LLM failed; ambiguous facts ADDed")
    for item in ambiguous:
        decision = validate_llm_decision(
            (answers or {}).get(item.index), [c.id for c in item.candidates], session.warnings
        )
        item.decision = decision or FactDecision(
            "ADD", reason="reconcile fallback: ADD", similarity=item.candidates[0].similarity
        )
    warnings += session.warnings
    session.warnings = []


async def reconcile_facts(
    executor: Executor,
    agent_id: str,
    items: list[FactItem],
    live: list[FactItem],
    relations: list[RelationItem],
    ex: Extraction,
    cfg: WriteConfig,
    session: LLMSession | None,
    run: WriteRun,
) -> list[str]:
    """The reconcile stage: each live fact's candidates (one read), its decision, single-valued
    supersession and contradiction flags. Returns the ids of the relationships to close."""
    single = tuple(cfg.single_valued_relations)
    cand_rows, active_rows = await load_fact_candidates(
        executor,
        agent_id,
        [
            {
                "index": i.index,
                "subject_key": i.subject_key,
                "content_hash": i.content_hash,
                "embedding": i.embedding,
            }
            for i in live
        ],
        cfg.reconcile_candidates * 2,  # over-fetch by vector, keep the top by hybrid score
        [
            {"key": key, "type": type_}
            for key, type_ in sorted(
                {(r.source_key, r.type) for r in relations if r.type in single}
            )
        ],
        cfg.reconcile_add_below,
        cfg.scan,
    )
    for row in cand_rows:
        items[row["index"]].candidates.append(
            ExistingFact(
                row["id"], row["text"], float(row["similarity"]), float(row["confidence"] or 0)
            )
        )
    for item in live:
        item.candidates = hybrid_rank(item.text, item.candidates, cfg.reconcile_candidates)
    await decide(live, session, cfg, run.warnings, ex.known_ids)
    active = [
        ExistingRelation(
            r["id"], r["source_key"], r["target_key"], r["type"], r["evidence_fact_id"]
        )
        for r in active_rows
    ]
    refuse_second_values(relations, active, cfg.first_value_relations, run.warnings)
    superseding = tuple(t for t in single if t not in cfg.first_value_relations)
    close_rels = apply_single_valued(items, relations, active, superseding)
    for item in live:
        flag_contradictions(item)
    run.step("reconcile", decisions={i.index: i.decision.action for i in live if i.decision})
    return close_rels


def refuse_second_values(
    relations: list[RelationItem],
    active: list[ExistingRelation],
    first_value: tuple[str, ...],
    warnings: list[str],
) -> None:
    """Drop (in place) the new relations of a type that keeps its first target when the
    source already has another one; the fact that said it is still written."""
    if not first_value:
        return
    new = [NewRelation(r.source_key, r.target_key, r.type) for r in relations]
    refused = {
        (rel.source_key, rel.target_key, rel.type): old
        for rel, old in second_values(new, active, first_value)
    }
    for key, old in refused.items():
        warnings.append(
            f"ontology: {key[2]} keeps its first value ({key[0]} → {old.target_key}); "
            f"{key[1]} refused"
        )
    relations[:] = [r for r in relations if (r.source_key, r.target_key, r.type) not in refused]
