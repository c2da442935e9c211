"""Stage 11 orchestration: reconciliation decisions for a message's facts."""

from __future__ import annotations

from graph.memory.write.config import WriteConfig
from graph.memory.write.llm_stages import LLMSession, reconcile_batch
from graph.memory.write.planning import FactItem
from graph.memory.write.reconcile import (
    FactDecision,
    fast_decision,
    is_retraction,
    offline_decision,
    validate_llm_decision,
)

__all__ = ["decide"]


async def decide(live: list[FactItem], session: LLMSession | None, cfg: WriteConfig,
                 warnings: list[str]) -> None:
    """Stage 11 for every live fact: thresholds first; in the ambiguous band one batched LLM
    call (validated; failures ADD), or the offline rules without an LLM."""
    ambiguous: list[FactItem] = []
    for item in live:
        fast = fast_decision(item.candidates, add_below=cfg.reconcile_add_below,
                             noop_at=cfg.reconcile_noop_at)
        retracting = item.fact.retraction or is_retraction(item.text)
        if session is None and retracting and item.candidates and (
                fast is None or fast.action != "NOOP"):
            item.decision = offline_decision(item.text, item.candidates,
                                             noop_at=cfg.reconcile_noop_at)
        elif fast is not None and not (
                # The extractor said this changes known facts: let the LLM judge even a
                # low-similarity candidate ("moved to Rio" vs "lives in São Paulo").
                session is not None and item.fact.action == "UPDATE"
                and fast.action == "ADD" and item.candidates):
            item.decision = fast
        elif session is None:
            item.decision = offline_decision(item.text, item.candidates,
                                             noop_at=cfg.reconcile_noop_at)
        else:
            ambiguous.append(item)
    if not ambiguous or session is None:
        return
    payload = [{"index": i.index, "new_fact": i.text, "existing": [
        {"id": c.id, "text": c.text, "similarity": round(c.similarity, 3)}
        for c in i.candidates]} for i in ambiguous]
    answers = await reconcile_batch(session, payload, cfg.reconcile_timeout_s)
    if answers is None:
        warnings.append("reconcile: LLM failed; ambiguous facts ADDed")
    for item in ambiguous:
        decision = validate_llm_decision((answers or {}).get(item.index),
                                         [c.id for c in item.candidates], session.warnings)
        item.decision = decision or FactDecision("ADD", reason="reconcile fallback: ADD",
                                                 similarity=item.candidates[0].similarity)
    warnings += session.warnings
    session.warnings = []
